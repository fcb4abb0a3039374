import type { Dispatcher } from 'undici';

type Controller = Dispatcher.DispatchController;
type Headers = Parameters<NonNullable<Dispatcher.DispatchHandler['onResponseStart']>>[2];
type Socket = Parameters<NonNullable<Dispatcher.DispatchHandler['onRequestUpgrade']>>[3];

/**
 * A handler (undici's controller API: onRequestStart ... onResponseEnd/onResponseError) that hands
 * every callback to the next one unchanged; an interceptor overrides the callbacks it cares about.
 * Handlers reaching an interceptor built with `Dispatcher.compose` are already of this API (compose
 * wraps legacy ones), so only these callbacks are forwarded.
 */
export class ForwardingHandler implements Dispatcher.DispatchHandler {
  protected readonly next: Dispatcher.DispatchHandler;

  constructor(next: Dispatcher.DispatchHandler) {
    this.next = next;
  }

  // `context` is undici's per-request bag, typed `any` by undici itself.
  onRequestStart(controller: Controller, context: unknown): void {
    this.next.onRequestStart?.(controller, context);
  }

  onRequestUpgrade(controller: Controller, statusCode: number, headers: Headers, socket: Socket): void {
    this.next.onRequestUpgrade?.(controller, statusCode, headers, socket);
  }

  onResponseStart(controller: Controller, statusCode: number, headers: Headers, statusMessage?: string): void {
    this.next.onResponseStart?.(controller, statusCode, headers, statusMessage);
  }

  onResponseData(controller: Controller, chunk: Buffer): void {
    this.next.onResponseData?.(controller, chunk);
  }

  onResponseEnd(controller: Controller, trailers: Headers): void {
    this.next.onResponseEnd?.(controller, trailers);
  }

  onResponseError(controller: Controller, error: Error): void {
    this.next.onResponseError?.(controller, error);
  }
}

/** A controller for a request that never reached the dispatcher (it failed while queued). */
export function failedController(reason: Error): Controller {
  return { aborted: true, paused: false, reason, abort() {}, pause() {}, resume() {} };
}
