export { createTransport } from './createTransport.ts';
export type { SendRequest, SendResult, SseEvent, Transport, TransportOptions, TransportStats } from './types.ts';
export { TransportError, isTransportError, MalformedResponseError, isMalformedResponseError, type TransportErrorCode, type MalformedResponseCode } from './errors.ts';
export { retryDelayMs, retryAfterMs } from './retryDelayMs.ts';
