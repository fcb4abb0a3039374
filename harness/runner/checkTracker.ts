import type { Exchange } from '#harness/core/exchange.ts';
import type { TokenUse } from '#harness/core/outcome.ts';
import type { CheckResponse } from '#harness/checks/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { isTransportError, type SendRequest } from '#harness/transport/index.ts';
import { isBudgetReached } from './spend/BudgetReachedError.ts';
import type { Meter } from './spend/meter.ts';
import { addBound, NO_BOUND, requestBound, type RequestBound } from './spend/requestBound.ts';
import { addTokens, NO_TOKENS } from '#harness/core/tokens.ts';
import { UsageReader } from './spend/usageReader.ts';

/**
 * What the runner sees of one check's requests: the tokens every answer reported (read once, here,
 * as the check reads the body), requests still open, and whether the budget stopped one. With a
 * Meter, the worker's spend and network time too.
 */
export class CheckTracker {
  observed: TokenUse = NO_TOKENS;
  budgetStop: string | undefined;
  /** Requests sent, and the most they could have cost (for the estimate). */
  requests = 0;
  /** HTTP attempts those requests took, retries included (known once each has its answer or error). */
  attempts = 0;
  bound: RequestBound = NO_BOUND;
  /** Round trips waited on one after another: requests sent while none of the check's was open (what its `chain` declares). */
  rounds = 0;
  /**
   * Requests that carried the run's key (or another meant to be valid), and those that carried none
   * or a wrong one on purpose; `refusedWithKey`: of the first, those answered 401. Once the endpoint
   * refused the key, only a check that sent no key at all is judged (runner/keyRefused.ts).
   */
  auth = { keyed: 0, keyless: 0, refusedWithKey: 0 };
  readonly #open = new Set<() => void>();
  readonly #judged = new Set<CheckResponse | Exchange>();
  constructor(readonly meter?: Meter, private readonly spec?: Spec) {}

  /** An answer the check read: one of its own, a shared one another check asked for, the served probe's. */
  saw(answer: CheckResponse | Exchange): void {
    this.#judged.add(answer);
  }

  /** The endpoint's answers the check read, each once: those a response came back for (a reset is no answer). */
  judged(): Exchange[] {
    return [...this.#judged].map((a) => ('request' in a ? a : a.exchange)).filter((e) => e.response !== undefined);
  }

  /** Ends every request the check left unread (a body it never consumed); returns the check's tokens. */
  settle(): TokenUse {
    for (const end of [...this.#open]) end();
    return this.observed;
  }

  wrap(req: SendRequest, send: (req: SendRequest) => Promise<CheckResponse>, model: string): Promise<CheckResponse> {
    try {
      this.meter?.guard();
    } catch (err) {
      if (isBudgetReached(err)) this.budgetStop ??= err.message;
      return Promise.reject(err);
    }
    this.requests++;
    if (this.#open.size === 0) this.rounds++;
    if (this.spec) this.bound = addBound(this.bound, requestBound(this.spec, model, req.body, req.rawBody));
    const finish = this.meter?.begin() ?? (() => undefined);
    const usage = new UsageReader();
    const end = () => {
      if (!this.#open.delete(end)) return;
      finish();
      this.observed = addTokens(this.observed, usage.tokens);
      this.meter?.spend(model, usage.tokens);
    };
    this.#open.add(end);
    return send(req).then(
      (res) => {
        this.attempts += res.exchange.attempts;
        const read = readingResponse(res, usage, end);
        this.saw(read);
        return read;
      },
      (err: unknown) => {
        this.attempts += isTransportError(err) ? err.exchange.attempts : 0;
        end();
        throw err;
      },
    );
  }
}

/** The response, its usage picked out as the check reads the body, and `end` called once that is read (or broke off). */
function readingResponse(res: CheckResponse, usage: UsageReader, end: () => void): CheckResponse {
  const seen = <T>(read: Promise<T>, see: (value: T) => void): Promise<T> =>
    read
      .then((value) => {
        see(value);
        return value;
      })
      .finally(end);
  return {
    status: res.status,
    headers: res.headers,
    get exchange() {
      return res.exchange;
    },
    text: () => seen(res.text(), (text) => usage.text(text)),
    json: () => seen(res.json(), (body) => usage.body(body)),
    events: () => ({
      async *[Symbol.asyncIterator]() {
        try {
          for await (const event of res.events()) {
            usage.event(event.data);
            yield event;
          }
        } finally {
          end();
        }
      },
    }),
  };
}
