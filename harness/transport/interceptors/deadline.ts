import type { Dispatcher } from 'undici';
import { DispatchEnded } from '../errors.ts';
import { contextOf } from './context.ts';
import { ForwardingHandler } from './forwardingHandler.ts';

type Controller = Dispatcher.DispatchController;

/**
 * Every exchange has a deadline: from its response headers to its last byte, the body may take at
 * most the request's `deadlineMs` (timing.ts derives it from what the request asks for), or
 * `defaultMs`. Past it the dispatch is aborted with a timeout, so a body that trickles (a byte every
 * few seconds: never idle long enough for the idle timeout) or never ends is cut, read or not.
 */
export function deadline(defaultMs: number): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) => dispatch(opts, new DeadlineHandler(handler, contextOf(opts)?.deadlineMs ?? defaultMs));
}

class DeadlineHandler extends ForwardingHandler {
  readonly #ms: number;
  #controller: Controller | undefined;
  #timer: NodeJS.Timeout | undefined;

  constructor(next: Dispatcher.DispatchHandler, ms: number) {
    super(next);
    this.#ms = ms;
  }

  override onRequestStart(controller: Controller, context: unknown): void {
    this.#controller = controller;
    super.onRequestStart(controller, context);
  }

  override onResponseStart(...args: Parameters<ForwardingHandler['onResponseStart']>): void {
    this.#timer ??= setTimeout(() => {
      this.#controller?.abort(new DispatchEnded('HARNESS_TIMEOUT', `the body did not end within ${this.#ms} ms of its headers (the exchange's deadline)`));
    }, this.#ms);
    super.onResponseStart(...args);
  }

  override onResponseEnd(...args: Parameters<ForwardingHandler['onResponseEnd']>): void {
    clearTimeout(this.#timer);
    super.onResponseEnd(...args);
  }

  override onResponseError(...args: Parameters<ForwardingHandler['onResponseError']>): void {
    clearTimeout(this.#timer);
    super.onResponseError(...args);
  }
}
