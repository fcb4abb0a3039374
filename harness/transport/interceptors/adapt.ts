import type { Dispatcher } from 'undici';
import type { AdaptiveLimit } from '../adaptiveLimit.ts';
import type { AnswerTimesMeter } from '../answerTimes.ts';
import { contextOf } from './context.ts';
import { ForwardingHandler } from './forwardingHandler.ts';

/**
 * Tells the adaptive limit how each attempt went: its status, how long its headers took and how
 * many attempts were on the wire when it was sent; and `times`, how long each kind of answer took. Composed innermost (inside `retry`), so a 429
 * that is waited out still counts as the endpoint asking for fewer requests.
 */
export function adapt(limit: AdaptiveLimit, times?: AnswerTimesMeter, clock: () => number = () => performance.now()): Dispatcher.DispatcherComposeInterceptor {
  let onWire = 0;
  return (dispatch) => (opts, handler) => {
    const context = contextOf(opts);
    // A load phase's overload is on purpose: it says nothing of the pace the other checks may keep.
    if (context?.load === true) return dispatch(opts, handler);
    onWire += 1;
    const route = context?.route;
    // A request whose first answer is final (a gateway check's) may have asked its upstream for a 429 on purpose: that says nothing of the load.
    const sent = { at: clock(), inFlight: onWire, epoch: limit.dispatched(), ...(route !== undefined ? { route } : {}), ...(context?.final === true ? { final: true } : {}) };
    let done = false;
    const end = () => {
      if (done) return;
      done = true;
      onWire -= 1;
    };
    try {
      return dispatch(opts, new ObservingHandler(handler, limit, sent, clock, end, () => onWire, times));
    } catch (err) {
      end();
      throw err;
    }
  };
}

/** undici's codes for no answer in time (not a refused or reset connection: those are answers of a kind). */
const SILENCE = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

class ObservingHandler extends ForwardingHandler {
  #answered = false;
  constructor(
    next: Dispatcher.DispatchHandler,
    private readonly limit: AdaptiveLimit,
    private readonly sent: { at: number; inFlight: number; epoch: number; route?: string; final?: boolean },
    private readonly clock: () => number,
    private readonly end: () => void,
    private readonly onWire: () => number,
    private readonly times?: AnswerTimesMeter,
  ) {
    super(next);
  }

  override onResponseStart(...args: Parameters<ForwardingHandler['onResponseStart']>): void {
    const [, status, headers] = args;
    this.#answered = true;
    const latencyMs = this.clock() - this.sent.at;
    this.times?.add(status, latencyMs);
    if (this.sent.final !== true) this.limit.answered({ status, headers, latencyMs, inFlight: this.sent.inFlight, busy: this.onWire(), epoch: this.sent.epoch, ...(this.sent.route !== undefined ? { route: this.sent.route } : {}) });
    super.onResponseStart(...args);
  }

  override onResponseEnd(...args: Parameters<ForwardingHandler['onResponseEnd']>): void {
    this.end();
    super.onResponseEnd(...args);
  }

  override onResponseError(...args: Parameters<ForwardingHandler['onResponseError']>): void {
    this.end();
    // No answer at all within the timeouts: the endpoint may be overwhelmed. An error after the headers is the body's, not the load's.
    if (!this.#answered && SILENCE.has((args[1] as { code?: string }).code ?? '')) this.limit.silent(this.sent.epoch);
    super.onResponseError(...args);
  }
}
