import type { RunRecord, RunSummary } from './runRecord.ts';
import { isRecord } from '#harness/core/isRecord.ts';
import { UNJUDGED_KINDS } from './judging.ts';

/**
 * How a JSON value is laid out on disk. An object lists its keys in a fixed order (unknown keys
 * follow, sorted); a map keeps its own keys in the order given; a leaf is written as it is. Payloads
 * (a recorded body, headers as they arrived) are leaves: evidence is kept exactly as observed.
 */
export type Layout =
  | { kind: 'object'; keys: readonly string[]; fields?: Readonly<Record<string, Layout>> }
  | { kind: 'array'; of: Layout }
  | { kind: 'leaf' };

const leaf: Layout = { kind: 'leaf' };
const object = (keys: readonly string[], fields: Readonly<Record<string, Layout>> = {}): Layout => ({ kind: 'object', keys, fields });
const array = (of: Layout): Layout => ({ kind: 'array', of });

const SUMMARY = object(['total', 'pass', 'fail', 'flaky', 'error', 'unsupported', 'skip', 'mustFailures', 'shouldFailures', 'advisoryFailures']);
const USAGE = object(['promptTokens', 'completionTokens', 'cacheHitTokens', 'costUsd']);

const BUDGET = object(['limitUsd', 'reached']);
const ESTIMATE = object(['method', 'requests', 'expected', 'upperBound'], {
  expected: object(['promptTokens', 'completionTokens', 'costUsd']),
  upperBound: object(['promptTokens', 'completionTokens', 'costUsd', 'uncappedRequests']),
});
const CAUSE = object(['key', 'message', 'headline', 'code', 'severity', 'failures', 'affected'], { affected: array(object(['checkId', 'model'])) });
const JUDGING = object(['scope', 'total', 'judged', 'notJudged', 'reasons'], { notJudged: object(UNJUDGED_KINDS), reasons: array(object(['kind', 'count', 'reason', 'handedTo'])) });
const TIMINGS = object(['wallMs', 'startupMs', 'requestsMs', 'judgingMs', 'reportingMs', 'otherMs', 'checks', 'checksPerSecond']);
const ANSWER_TIME = object(['count', 'p50Ms', 'p95Ms', 'maxMs']);
const TRAFFIC = object(['requests', 'retries', 'concurrency', 'answerTimes', 'upstream'], {
  answerTimes: object(['served', 'refused'], { served: ANSWER_TIME, refused: ANSWER_TIME }), concurrency: object(['initial', 'max', 'adaptive', 'reached', 'final', 'decreases', 'highest', 'changes', 'changesOmitted'], { changes: array(object(['sinceMs', 'atMs', 'from', 'to', 'why'])) }), upstream: object(['marked', 'requests', 'paired', 'perClientRequest', 'models']) });

const LOAD_COUNTS = ['requests', 'answered', 'refused429', 'refused503', 'other'] as const;
const LOAD_SAMPLES = object(['count', 'values']);
const LOAD = object(['n', 'totals', 'recovery', 'endedEarly', 'steps'], {
  totals: object(LOAD_COUNTS),
  recovery: object(['windowMs', 'recoveredMs', 'tries']),
  steps: array(
    object(['inFlight', ...LOAD_COUNTS, 'wallMs', 'completionTokens', 'ttftMs', 'chunkGapMs', 'outputTokensPerSecond', 'samples'], {
      ttftMs: object(['p50', 'p95', 'p99']),
      chunkGapMs: object(['p95']),
      outputTokensPerSecond: object(['perStream', 'all']),
      samples: object(['ttftMs', 'chunkGapMs', 'streamTokensPerSecond'], { ttftMs: LOAD_SAMPLES, chunkGapMs: LOAD_SAMPLES, streamTokensPerSecond: LOAD_SAMPLES }),
    }),
  ),
});

const EXCHANGE = object(['request', 'response', 'error', 'attempts', 'beyondCap'], {
  request: object(['method', 'url', 'headers', 'body', 'rawBody']),
  response: object(['status', 'headers', 'durationMs', 'truncated', 'body', 'text', 'events'], {
    events: array(object(['at', 'event', 'data'])),
  }),
  error: object(['code', 'message']),
  beyondCap: object(['askedMs', 'capMs']),
});

const CHECK_RESULT = object(
  ['checkId', 'title', 'area', 'severity', 'basis', 'specRefs', 'model', 'verdict', 'skipKind', 'reason', 'cause', 'durationMs', 'tokens', 'attempts', 'repeat', 'handedTo', 'judged', 'failures'],
  {
    cause: object(['code', 'what', 'declared'], { declared: object(['route', 'grounds']) }),
    tokens: object(['promptTokens', 'completionTokens', 'cacheHitTokens']),
    judged: object(['exchanges', 'chunks', 'cases']),
    attempts: object(['requests', 'attempts']),
    repeat: object(['runs', 'passes', 'fails', 'passAtK', 'passHatK']),
    handedTo: array(object(['check', 'request', 'defect'])),
    failures: array(
      object(['message', 'key', 'errorEnvelope', 'defect', 'ownedBy', 'ownedOn', 'path', 'specRef', 'reproducer', 'evidence', 'comparison'], {
        defect: object(['kind', 'path', 'change', 'keyword', 'expected', 'got', 'code', 'client', 'version', 'atUpstream', 'atClient', 'status', 'askedMs', 'capMs', 'what']),
        reproducer: object(['curl', 'seed', 'path', 'fixture', 'client']),
        evidence: EXCHANGE,
        comparison: EXCHANGE,
      }),
    ),
  },
);

/** Exported for the test that keeps this layout and reports/report.schema.json in step. */
export const RUN_RECORD_LAYOUT: Layout = object(
  ['schemaVersion', 'harness', 'spec', 'target', 'model', 'targetModel', 'startedAt', 'finishedAt', 'referenceTime', 'options', 'interrupted', 'interruptedBy', 'endedEarly', 'wrongBase', 'score', 'coverage', 'judging', 'summary', 'usage', 'budget', 'estimate', 'timings', 'traffic', 'causes', 'load', 'results'],
  {
    // The load figures after the causes: their samples are long, and the head of the file stays readable.
    load: LOAD,
    coverage: object(['covered', 'total', 'percent', 'notJudged']),
    judging: JUDGING,
    causes: array(CAUSE),
    budget: BUDGET,
    estimate: ESTIMATE,
    timings: TIMINGS,
    traffic: TRAFFIC,
    harness: object(['name', 'version']),
    spec: object(['revision', 'updated']),
    target: object(['kind', 'baseUrl', 'messagesBaseUrl']),
    referenceTime: object(['value', 'source']),
    options: object(['strict', 'only', 'skip', 'clients', 'clientsGate', 'shard', 'runs', 'coverage', 'load', 'seed', 'without', 'repeat', 'allowFlaky', 'baseline', 'known'], {
      baseline: object(['source', 'verdicts']),
      known: object(['source', 'strict', 'entries'], { entries: array(object(['check', 'model', 'baseUrl', 'reason', 'until', 'link', 'causes', 'passRate', 'at', 'expired'])) }),
    }),
    summary: SUMMARY,
    usage: USAGE,
    results: array(CHECK_RESULT),
  },
);

export const RUN_SUMMARY_LAYOUT: Layout = object(['schemaVersion', 'startedAt', 'finishedAt', 'outcome', 'reason', 'exitCode', 'interrupted', 'totals', 'causes', 'budget', 'estimate', 'timings', 'cells'], {
  causes: array(CAUSE),
  budget: BUDGET,
  estimate: ESTIMATE,
  timings: TIMINGS,
  totals: SUMMARY,
  cells: array(object(['baseUrl', 'model', 'report', 'outcome', 'reason', 'judging', 'summary', 'usage', 'traffic'], { judging: JUDGING, summary: SUMMARY, usage: USAGE, traffic: TRAFFIC })),
});

function arrange(value: unknown, layout: Layout): unknown {
  if (layout.kind === 'array' && Array.isArray(value)) return value.map((v) => arrange(v, layout.of));
  if (layout.kind === 'object' && isRecord(value)) {
    const out: Record<string, unknown> = {};
    const known = new Set(layout.keys);
    const keys = [...layout.keys.filter((k) => k in value), ...Object.keys(value).filter((k) => !known.has(k)).sort()];
    for (const k of keys) out[k] = arrange(value[k], layout.fields?.[k] ?? leaf);
    return out;
  }
  return value;
}

/** Pretty JSON (2 spaces), keys in a fixed order, a trailing newline: the same record gives the same bytes. */
export function serializeRunRecord(record: RunRecord): string {
  return `${JSON.stringify(arrange(record, RUN_RECORD_LAYOUT), null, 2)}\n`;
}

/** The cross-cell summary, laid out the same way. */
export function serializeRunSummary(summary: RunSummary): string {
  return `${JSON.stringify(arrange(summary, RUN_SUMMARY_LAYOUT), null, 2)}\n`;
}
