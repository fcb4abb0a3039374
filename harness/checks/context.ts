import type { Exchange } from '#harness/core/exchange.ts';
import type { Answer } from '#harness/core/answer.ts';
import type { ClassCoverage, Failure, SkipKind } from '#harness/core/outcome.ts';
import type { Spec } from '#harness/spec/model.ts';
import type { Violation } from '#harness/derive/validators/index.ts';
import type { Profile } from '#harness/derive/schemas/index.ts';
import type { UpstreamExchange, UpstreamFault, UpstreamKind } from '#harness/core/upstream.ts';
import type { DrivenLoad } from './load/run.ts';

/** Which credentials a request carries: the run's key, none, a malformed header, a wrong key, or a
 * second key whose balance is empty (when the run has one). */
export type AuthMode = 'key' | 'none' | 'malformed' | 'wrong' | 'empty-balance';

export interface CheckRequest {
  /** Key of spec.bases the request goes to. */
  base: string;
  method: 'GET' | 'POST';
  /** Path below the base, e.g. `/chat/completions`. */
  path: string;
  body?: unknown;
  /** Bytes that are deliberately not JSON. */
  rawBody?: string;
  auth?: AuthMode;
  /** false: do not retry a 500 (only advised). 429 and 503 are always waited out, per the spec's policy. */
  retry?: boolean;
  /** true: the first answer is final, a 429 or 503 too (what a gateway passed on, as it came). */
  final?: boolean;
  /** A gateway run with the embedded emulator upstream: what the upstream answers this request with instead (core/upstream.ts). */
  upstream?: UpstreamFault;
  /** A request of the load phase: outside the run's limit, never retried, its first answer final (load/drive.ts). */
  load?: true;
}

/** The upstream side of a gateway run (`run --upstream-port`), as a check sees it. */
export interface UpstreamView {
  kind: UpstreamKind;
  /** Whether a request may ask the upstream for a fault (`upstream` of CheckRequest): the emulator served, or a recording of it. */
  faults: boolean;
  /** The upstream exchanges an answer's request caused (paired by its marker), each read to its end; undefined when the request could carry no marker. */
  of(res: CheckResponse): Promise<UpstreamExchange[] | undefined>;
  /** The client side has received `chars` characters of the answer's text (a lockstep stream waits on it). */
  seen(res: CheckResponse, chars: number): void;
}

/** What a check gets back: the transport's answer (core/answer.ts). Checks never see the transport. */
export type CheckResponse = Answer;

export interface ReferenceTime {
  value: Date;
  source: 'flag' | 'server-date' | 'local-clock' | 'fixture';
}

/** Everything a check may use. A check cannot tell which target answers. */
export interface CheckContext {
  spec: Spec;
  /** The spec's model id under test. */
  model: string;
  /** The id sent to the target (a provider's own id under --model-map). */
  targetModel: string;
  /** The target's id for any model of the spec (the identity without a model map). */
  mapModel(specId: string): string;
  send(request: CheckRequest): Promise<CheckResponse>;
  /**
   * From now on the check waits on about `roundTrips` more round trips one after another (a property
   * shrinking a counterexample): its requests wait for a slot ahead of those with fewer to go.
   * Absent where requests have no line to wait in (a check judged alone).
   */
  lengthen?(roundTrips: number): void;
  /** Whether the target serves `endpoint` (a key of spec.endpoints) on `base`, asked once per run. */
  served(endpoint: string, base: string): Promise<ServedVerdict>;
  judge(objectName: string, body: unknown, profile?: Profile): Violation[];
  referenceTime(): Promise<ReferenceTime>;
  /** Answers shared by the checks of one target run, keyed by request (support/samples.ts): the runner gives each run its own. */
  samples: SampleStore;
  /** A gateway run: the harness's upstream side, which gateway.* checks judge the answers against. */
  upstream?: UpstreamView;
  /** The load phase on this model (`run --load N`, the load.* checks), as the runner drove it: undefined in a run without one. */
  load?: LoadPhaseView;
  /** `keyVariable`: the environment variable the key came from, for reproducers that read it back (never the key). */
  /** `coverage`: classes the coverage phase sends per operation and model, when the run sets it (--coverage). */
  /** `without`: the features the run leaves out (`--without`), whose requests are never sent. */
  options: { strict: boolean; runs: number; coverage?: number; seed: number; lifecycleToleranceSeconds: number; hasEmptyBalanceKey: boolean; keyVariable: string; without?: readonly string[] };
}

/** The load phase as a load check sees it: N (this shard's share of it), and the one run of the phase on the model, handed to every load check to judge. */
export interface LoadPhaseView {
  n: number;
  run: DrivenLoad;
}

/** Where shared answers are kept (a Map will do): the runner's view of it also notes which answers each check read. */
export interface SampleStore {
  get(key: string): Promise<StoredAnswer> | undefined;
  set(key: string, answer: Promise<StoredAnswer>): unknown;
}

/** What the store holds of a shared answer: its response, at least (support/samples.ts SharedAnswer adds what was read of it). */
export interface StoredAnswer {
  res: CheckResponse;
}

/** Whether the target serves an endpoint on a base (runner/servedGate.ts), or the run left its feature out; `evidence`: the answers that showed it. */
export type ServedVerdict =
  | { served: true; evidence: Exchange[] }
  /** Answered "not now" (429, 503) on every try the retry guidance allows: evidence neither way. */
  | { unavailable: string; evidence: Exchange[] }
  | { served: false; why: string; evidence: Exchange[] } | { outOfScope: string } | { unknown: string };

export type CheckOutcome =
  /** `cases`: how many the pass rests on, for a check that puts several (a property's values, a rule's cases). */
  | { verdict: 'pass'; note?: string; cases?: number; notJudged?: number; classes?: ClassCoverage }
  | { verdict: 'fail'; failures: Failure[]; classes?: ClassCoverage }
  | { verdict: 'skip'; reason: string; kind: SkipKind }
  | { verdict: 'unsupported'; reason: string };
