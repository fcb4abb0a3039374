export { createTransport } from './createTransport.ts';
export type { KeyRefused, SendRequest, SendResult, SseEvent, Transport, TransportOptions, TransportStats, Waiting } from './types.ts';
export { KeyRefusal } from './keyRefusal.ts';
export { NO_ANSWER, TransportError, isTransportError, MalformedResponseError, isMalformedResponseError, type TransportErrorCode, type MalformedResponseCode } from './errors.ts';
export { retryDelayMs, retryAfterMs } from './retryDelayMs.ts';
export { ADAPTIVE, concurrencyPolicyOf, type ConcurrencyPolicy, type ConcurrencyStats } from './adaptiveLimit.ts';
export { chainPriority, PRIORITY } from './priority.ts';
export { Semaphore } from './semaphore.ts';
