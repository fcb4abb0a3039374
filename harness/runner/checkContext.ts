import { randomBytes } from 'node:crypto';
import { NOT_CAPTURED_HEADER, NotCapturedError } from '#harness/core/notCaptured.ts';
import type { CheckContext, CheckRequest, CheckResponse, DrivenLoad, LoadPhaseView, SampleStore, StoredAnswer, UpstreamView } from '#harness/checks/index.ts';
import { marked, markerFor, markerOf } from '#harness/core/marker.ts';
import type { UpstreamSide } from '#harness/core/upstream.ts';
import { heldUpstream } from '#harness/gateway/held.ts';
import { canonicalBody } from '#harness/replay/fixtureFormat.ts';
import { validatorFor } from '#harness/derive/validators/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { chainPriority, KeyRefusal, type SendRequest } from '#harness/transport/index.ts';
import { baseUrlOf } from './baseUrls.ts';
import { CheckTracker } from './checkTracker.ts';
import { loadShareOf, targetModelOf, type EndpointSettings, type GatewaySettings, type JudgingSettings, type LoadSettings } from './runConfig.ts';
import { streamCapOf } from './spend/streamCap.ts';
import { headersOf } from '#harness/core/extraHeaders.ts';
import { BlockedError } from '#harness/core/blocked.ts';
import { servedCheckId } from '#harness/checks/endpoint/served.ts';
import { routeKey, ServedGate, type Route } from './servedGate.ts';
import { leftOutByRequest, outOfScope } from '#harness/spec/features.ts';
import { isRecord } from '#harness/core/isRecord.ts';

export interface Sender {
  send(request: SendRequest): Promise<CheckResponse>;
}

/** A wrong key of the description's shape: random, so it is never anyone's key. */
const WRONG_KEY = `sk-wrong-${randomBytes(12).toString('hex')}`;

function authHeaders(mode: CheckRequest['auth'], key: string, emptyBalanceKey: string | undefined): Record<string, string> {
  switch (mode ?? 'key') {
    case 'empty-balance':
      return { authorization: `Bearer ${emptyBalanceKey ?? key}` };
    case 'none':
      return {};
    case 'malformed':
      return { authorization: 'Token not-a-bearer-credential' };
    case 'wrong':
      return { authorization: `Bearer ${WRONG_KEY}` };
    default:
      return { authorization: `Bearer ${key}` };
  }
}

/** Whether a request of this auth mode carries a key meant to be accepted (the run's, or the empty-balance key). */
const withKey = (mode: CheckRequest['auth']): boolean => mode === undefined || mode === 'key' || mode === 'empty-balance';

/** A stream may carry what it asked for (streamCap.ts); other requests keep the transport's caps. */
const withStreamCap = (cap: number | undefined) => (cap === undefined ? {} : { maxStreamBytes: cap });

/** What the checks of one target run share: each route asked about once, each sample sent once. */
export interface RunShared {
  gate: ServedGate;
  samples: SampleStore;
  /** A gateway run: how many times each body was sent, for the marker of the next (core/marker.ts markerFor). */
  marks: Map<string, number>;
  /** The load phase's run on each model (`run --load`), once the runner has driven it (loadPhase.ts): what the load checks judge. */
  loads: Map<string, DrivenLoad>;
}


/**
 * A target run's shared state, made once per run by its executor (runScope.ts). The served-gate's
 * probes go straight through the transport (a few short requests a run, outside any check's meter).
 */
export function createRunShared(spec: Spec, config: EndpointSettings, sender: Sender): RunShared {
  const mapModel = (id: string) => targetModelOf(config, id);
  const current = Object.entries(spec.models).filter(([, m]) => m.kind === 'current');
  const fallback = current.find(([, m]) => m.default)?.[0] ?? current[0]?.[0] ?? Object.keys(spec.models)[0]!;
  // A model that serves the route's feature, where the spec says which do.
  const modelFor = (route: Route) => mapModel(current.find(([, m]) => Array.isArray(m.features) && (m.features as string[]).includes(route.feature))?.[0] ?? fallback);
  const gate = new ServedGate({
    spec,
    without: config.without ?? [],
    modelFor,
    urlOf: (route, path) => baseUrlOf(spec, config, route.base) + path,
    headers: () => ({ ...headersOf(config.extraHeaders ?? []), authorization: `Bearer ${config.apiKey}` }),
    send: (r) => sender.send(r),
  });
  return { gate, samples: new Map(), marks: new Map(), loads: new Map() };
}

/**
 * A gateway run's request body, marked (core/marker.ts) so the upstream exchanges it causes are
 * paired with it; the marker follows from the body and how often it was sent before, so a replay of
 * the run sends the same bytes. A fault the request asks of the upstream is planned under it.
 */
function markedFor(req: CheckRequest, upstream: UpstreamSide, marks: Map<string, number>): unknown {
  const canonical = canonicalBody({ body: req.body });
  const occurrence = marks.get(canonical) ?? 0;
  const marker = markerFor(canonical, occurrence);
  const body = marked(req.body, marker);
  // A body with no text to carry a marker (a class of invalid request) goes as it is, and is not counted as marked.
  if (body === undefined) return req.body;
  marks.set(canonical, occurrence + 1);
  if (req.upstream !== undefined) upstream.plan(marker, req.upstream);
  return body;
}

/** The upstream side as checks see it: exchanges by the answer whose request caused them. */
function upstreamView(side: UpstreamSide): UpstreamView {
  const markerOfAnswer = (res: CheckResponse) => markerOf(res.exchange.request.body);
  return {
    kind: side.kind,
    faults: side.faults,
    of: async (res) => {
      const marker = markerOfAnswer(res);
      return marker === undefined ? undefined : side.exchanges(marker);
    },
    seen: (res, chars) => {
      const marker = markerOfAnswer(res);
      if (marker !== undefined) side.seen(marker, chars);
    },
  };
}

/** The run's shared answers as one check sees them: each it reads (asked first or not) is noted as judged by it. */
function judgedSamples(store: SampleStore, tracker: CheckTracker): SampleStore {
  const note = (answer: Promise<StoredAnswer> | undefined) => {
    answer?.then((a) => tracker.saw(a.res), () => undefined);
    return answer;
  };
  return { get: (key) => note(store.get(key)), set: (key, answer) => store.set(key, note(answer)!) };
}

/** The load phase as a check sees it: the run handed to it, every exchange of it noted as read by the check. */
function loadView(run: DrivenLoad, n: number, tracker: CheckTracker): LoadPhaseView {
  for (const x of run.exchanges) tracker.saw(x.exchange);
  return { n, run };
}

/** What a check's context reads of the run: the endpoint, a gateway's upstream, the load phase, and what the checks judge by. */
export type ContextSettings = EndpointSettings & GatewaySettings & LoadSettings & JudgingSettings;

/**
 * The CheckContext of one check on one model: requests go through the run's transport. Without
 * `shared` the check shares nothing (a test judging one check at a time). `chain`: the round trips
 * the check waits on one after another (schedule.ts); each request waits for a slot ahead of those
 * with fewer left to go.
 */
export function createCheckContext(spec: Spec, config: ContextSettings, sender: Sender, model: string, tracker = new CheckTracker(), shared = createRunShared(spec, config, sender), chain = 1): CheckContext {
  const mapModel = (id: string) => targetModelOf(config, id);
  const served = shared.gate;
  const upstream = config.upstream === undefined ? undefined : heldUpstream(config.upstream.id);
  // The load phase's checks run once the runner has driven it on the model: before, no check sees it.
  const driven = loadShareOf(config) > 0 ? shared.loads.get(model) : undefined;
  // Set by `lengthen`: the round trips declared from the request count then (a property's shrinking).
  let lengthened: { roundTrips: number; from: number } | undefined;
  const roundTripsLeft = () => (lengthened ? lengthened.roundTrips - (tracker.requests - lengthened.from) : chain - tracker.requests);
  const send = async (req: CheckRequest): Promise<CheckResponse> => {
    // A request to a route that is not served, or left out of the run, is not sent: the check is skipped.
    const route = served.routeOf(req.base, req.method, req.path);
    if (route) {
      const v = await served.verdict(route);
      if ('outOfScope' in v) throw new BlockedError(v.outOfScope, 'out-of-scope');
      // Not served, or "not now" on every try (another request would wait it out again): the served check reports it once.
      const why = 'unavailable' in v ? v.unavailable : 'served' in v && !v.served ? v.why : undefined;
      if (why !== undefined) {
        const by = servedCheckId(route.endpoint, route.base);
        const evidence = 'served' in v ? v.evidence[0] : undefined;
        throw new BlockedError(`blocked by ${by}: ${why}`, 'blocked', { check: by, ...(evidence ? { evidence } : {}), ...('unavailable' in v ? { unavailable: true as const } : {}) });
      }
    }
    // A request asking for a feature the run leaves out is not sent either.
    const leftOut = leftOutByRequest(spec, config.without ?? [], req.body);
    if (leftOut !== undefined) throw new BlockedError(outOfScope(leftOut), 'out-of-scope');
    // Whether the run's key went with it: a refused key blocks every check that needed it (keyRefused.ts).
    const keyed = withKey(req.auth);
    if (keyed) tracker.auth.keyed += 1;
    else tracker.auth.keyless += 1;
    const body = upstream === undefined || req.body === undefined ? req.body : markedFor(req, upstream, shared.marks);
    const res = await tracker.wrap({
      method: req.method,
      url: baseUrlOf(spec, config, req.base) + req.path,
      headers: { ...headersOf(config.extraHeaders ?? []), ...authHeaders(req.auth, config.apiKey, config.emptyBalanceKey), ...(req.body !== undefined || req.rawBody !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body } : {}),
      ...(req.final === true ? { final: true } : {}),
      ...(req.rawBody !== undefined ? { rawBody: req.rawBody } : {}),
      ...(req.retry === false ? { retry: false } : {}),
      ...(req.load === true ? { load: true } : { priority: chainPriority(roundTripsLeft()) }),
      ...(route ? { route: routeKey(spec, route, isRecord(req.body) && req.body.stream === true) } : {}),
      ...withStreamCap(streamCapOf(spec, model, req.body)),
    }, (r) => sender.send(r), model);
    const missing = res.headers[NOT_CAPTURED_HEADER];
    if (missing !== undefined) throw new NotCapturedError(missing);
    if (keyed && res.status === KeyRefusal.STATUS) tracker.auth.refusedWithKey += 1;
    return res;
  };
  return {
    spec,
    model,
    targetModel: mapModel(model),
    mapModel,
    send,
    lengthen: (roundTrips) => {
      lengthened = { roundTrips, from: tracker.requests };
    },
    served: async (endpoint, base) => {
      const route = served.routes.find((r) => r.endpoint === endpoint && r.base === base);
      const v = route ? await served.verdict(route) : { served: true as const, evidence: [] };
      if ('evidence' in v) for (const e of v.evidence) tracker.saw(e);
      return v;
    },
    judge: (objectName, body, profile = 'default') => validatorFor(spec, objectName, { profile })(body),
    referenceTime: async () => ({ value: new Date(config.referenceTime.value), source: config.referenceTime.source }),
    samples: judgedSamples(shared.samples, tracker),
    ...(driven !== undefined ? { load: loadView(driven, loadShareOf(config), tracker) } : {}),
    ...(upstream ? { upstream: upstreamView(upstream) } : {}),
    options: { strict: config.strict, runs: config.runs, ...(config.coverage === undefined ? {} : { coverage: config.coverage }), seed: config.seed, lifecycleToleranceSeconds: config.lifecycleToleranceSeconds, hasEmptyBalanceKey: config.emptyBalanceKey !== undefined, keyVariable: config.apiKeyEnv, ...(config.without && config.without.length > 0 ? { without: config.without } : {}) },
  };
}

