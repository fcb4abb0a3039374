import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { FAULTS, type FaultDef } from '#harness/emulator/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startCliThread } from '#harness/testing/cliThread.ts';
import { CLIENTS } from '#harness/checks/client/index.ts';
import { ADAPTIVE } from '#harness/transport/index.ts';
import { main } from './main.ts';

/**
 * The whole fault catalogue through the real CLI, in this process (main, in this thread and in a
 * worker thread of it): for each fault, the checks covering the rule it breaks fail (and pass against
 * the clean emulator on the same clock), and the run's exit code says so. A check no fault can make
 * fail, or a fault no check notices, fails this file.
 */
const { spec } = loadSpec();
const registry = buildRegistry(spec);
const BEFORE = '2026-06-01T00:00:00Z';
const AFTER = '2026-11-01T00:00:00Z';
/** Faults that only show once the legacy aliases have retired. */
const NEEDS_AFTER = new Set(['alias-never-retires', 'retired-alias-falls-back']);
/** Faults that only the strict profile reports (fields the description does not list). */
const NEEDS_STRICT = new Set(['extra-fields']);
/** A fault that breaks no rule, only a premise of the checks of its `breaks` (catalogue.ts). */
const isPremise = (f: FaultDef): boolean => f.premise === true;
/**
 * Faults of the load phase's rules: shown by a run with `--load 16`. The other checks keep 6 in flight
 * (below the faults' 8, with room for the emulator seeing a request end a moment after the client
 * did), and a hung request is given up after 2 s, not the default 60.
 */
const isLoadFault = (f: FaultDef): boolean => f.breaks.startsWith('rate_limits.under_load.');
const LOAD_ARGS = ['--load', '16', '--concurrency', '6', '--timeout-ms', '2000'];
/**
 * The other runs keep the adaptive limit's start: on loopback answers come back at once and it stays
 * there, but four runs at once in one process on two cores answer slowly enough to grow it into the
 * emulator's per-key 429s and halve it below the `answers-crossed` threshold, and the more requests
 * between a conversation's two turns, the fewer `stateful-history` remembers. The walk judges the
 * checks, not the limit (transport/adaptiveLimit.test.ts and runner/latency.test.ts do).
 */
const ORDINARY_ARGS = ['--concurrency', String(ADAPTIVE.initial)];
const cleanRunOf = (f: FaultDef) => (isLoadFault(f) ? 'clean-load' : NEEDS_STRICT.has(f.id) ? 'clean-strict' : NEEDS_AFTER.has(f.id) ? 'clean-after' : 'clean-before');

interface Run {
  code: number;
  results: CheckResult[];
}

const dir = mkdtempSync(join(tmpdir(), 'svc-walk-'));
const runs = new Map<string, Run>();
/** What the process held before the runs: many runs in one process must leave it as they found it. */
const before = { SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM'), exitCode: process.exitCode };

/** One run of the walk, by `cli`: main() in this thread, or in the walk's worker thread. */
async function runCli(name: string, args: string[], cli: (argv: string[]) => Promise<number>): Promise<Run> {
  const out = join(dir, name);
  // Every pinned client, not only run's default two: each client check must fail under some fault too.
  const code = await cli(['run', '--quiet', '--report-dir', out, '--json', `${out}.json`, '--clients', CLIENTS.map((c) => c.name).join(','), ...args]);
  const all = JSON.parse(readFileSync(`${out}.json`, 'utf8')) as { records: { results: CheckResult[] }[] };
  return { code, results: all.records.flatMap((r) => r.results) };
}

/** A check covers a fault when one of its spec refs is the entry the fault breaks, or contains it. */
function covers(check: { specRefs: string[] }, f: FaultDef): boolean {
  return check.specRefs.some((ref) => f.breaks === ref || f.breaks.startsWith(`${ref}.`) || ref.startsWith(`${f.breaks}.`));
}

const key = (r: CheckResult) => `${r.checkId}|${r.model}`;

beforeAll(async () => {
  const jobs: [string, string[]][] = [
    ['clean-before', ['--now', BEFORE, ...ORDINARY_ARGS]],
    ['clean-after', ['--now', AFTER, ...ORDINARY_ARGS]],
    ['clean-strict', ['--now', BEFORE, '--strict', ...ORDINARY_ARGS]],
    ['clean-load', ['--now', BEFORE, ...LOAD_ARGS]],
    ...FAULTS.map((f): [string, string[]] => [f.id, ['--fault', f.id, '--now', NEEDS_AFTER.has(f.id) ? AFTER : BEFORE, ...(NEEDS_STRICT.has(f.id) ? ['--strict'] : []), ...(isLoadFault(f) ? LOAD_ARGS : ORDINARY_ARGS)]]),
  ];
  // The runs are CPU work, and a thread runs on one core: half the lanes run main() in this thread,
  // half in a worker thread of this process (harness/testing/cliThread.ts), two runs in each at once.
  const thread = await startCliThread();
  try {
    const here = (argv: string[]) => main(argv, captureIO());
    let next = 0;
    await Promise.all(
      [here, here, thread.run, thread.run].map(async (cli) => {
        while (next < jobs.length) {
          const [name, args] = jobs[next++]!;
          runs.set(name, await runCli(name, args, cli));
        }
      }),
    );
  } finally {
    await thread.close();
  }
}, 600_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the clean emulator', () => {
  test.each(['clean-before', 'clean-after', 'clean-load'])('%s: exit 0, no must-check fails, nothing ends in error', (name) => {
    const run = runs.get(name)!;
    expect(run.results.filter((r) => r.verdict === 'error').map((r) => `${key(r)}: ${r.reason}`)).toEqual([]);
    expect(run.results.filter((r) => r.verdict === 'fail' && r.severity === 'must').map(key)).toEqual([]);
    expect(run.code).toBe(0);
  });
});

describe('each fault', () => {
  test.each(FAULTS.filter(isPremise).map((f) => [f.id, f] as const))('%s (a premise, no rule broken): the checks covering its rule are inconclusive, none fails or passes', (_id, f) => {
    const run = runs.get(f.id)!;
    const clean = runs.get(cleanRunOf(f))!;
    const cleanPassing = new Set(clean.results.filter((r) => r.verdict === 'pass').map(key));
    const covering = run.results.filter((r) => covers(r, f) && cleanPassing.has(key(r)));
    expect(covering.length).toBeGreaterThan(0);
    for (const r of covering) expect({ id: key(r), verdict: r.verdict, kind: r.skipKind }).toEqual({ id: key(r), verdict: 'skip', kind: 'inconclusive' });
    expect(run.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => `${key(r)}: ${r.reason ?? r.failures?.[0]?.message}`)).toEqual([]);
    expect(run.code).toBe(0);
  });

  test.each(FAULTS.filter((f) => !isPremise(f)).map((f) => [f.id, f] as const))('%s: the checks covering its rule fail', (_id, f) => {
    const run = runs.get(f.id)!;
    const clean = runs.get(cleanRunOf(f))!;
    const cleanPassing = new Set(clean.results.filter((r) => r.verdict === 'pass').map(key));
    const failing = run.results.filter((r) => r.verdict === 'fail');
    const coveringFailures = failing.filter((r) => covers(r, f) && cleanPassing.has(key(r)));
    expect(coveringFailures.map(key), `no check covering ${f.breaks} failed under ${f.id}; failing: ${failing.map(key).join(', ')}`).not.toEqual([]);
    // A rule the description entails is judged at must: a covering check fails at must.
    if (ENTAILED_AT_MUST.includes(f.id)) expect(coveringFailures.filter((r) => r.severity === 'must').map(key)).not.toEqual([]);
    expect(run.results.filter((r) => r.verdict === 'error').map((r) => `${key(r)}: ${r.reason}`)).toEqual([]);
    // A must-level failure fails the run; a should-level one too under --strict; advisory never.
    const gating = failing.some((r) => r.severity === 'must' || (NEEDS_STRICT.has(f.id) && r.severity === 'should'));
    expect(run.code).toBe(gating ? 1 : 0);
  });
});

describe('the load phase', () => {
  test('the clean emulator under 16 in flight: every load check judged and passing', () => {
    const load = runs.get('clean-load')!.results.filter((r) => r.area === 'load');
    expect(load.length).toBeGreaterThan(0);
    expect(load.filter((r) => r.verdict !== 'pass').map((r) => `${key(r)}: ${r.verdict} ${r.reason ?? ''}`)).toEqual([]);
  });

  test.each(FAULTS.filter(isLoadFault).map((f) => [f.id, f] as const))('%s fails exactly its check, on each model, and nothing else', (_id, f) => {
    const run = runs.get(f.id)!;
    const failing = [...new Set(run.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error').map((r) => r.checkId))];
    const owner = registry.all().filter((c) => c.phase === 'load' && covers(c, f)).map((c) => c.id);
    expect(owner).toHaveLength(1);
    expect(failing).toEqual(owner);
  });
});

describe('premises: inconclusive where a premise fails, a failure where the contract breaks', () => {
  const verdictOf = (run: string, id: string, model = 'svc-v4-flash') => {
    const r = runs.get(run)!.results.find((x) => x.checkId === id && x.model === model);
    return r === undefined ? 'missing' : r.verdict === 'skip' ? `skip (${r.skipKind})` : r.verdict;
  };

  test('every reasoning_effort refused: the valid values fail; the refusal beyond the bound is inconclusive (no control accepted)', () => {
    expect(verdictOf('reasoning-effort-always-refused', 'request.reasoning-effort.accepted-within-bounds')).toBe('fail');
    expect(verdictOf('reasoning-effort-always-refused', 'request.reasoning-effort.refused-beyond-bounds')).toBe('skip (inconclusive)');
    // As behind LiteLLM's openai provider (fixtures/litellm-openai): the rules that need it name the check that owns the refusal.
    for (const id of ['rule.chat.reasoning-effort.none-equals-disabled', 'rule.chat.reasoning-effort.none-equals-disabled.streamed']) expect(verdictOf('reasoning-effort-always-refused', id), id).toBe('skip (inconclusive)');
  });

  test('every `stop` refused: one must failure, its acceptance check; the checks that need `stop` are inconclusive, naming it', () => {
    expect(verdictOf('stop-always-refused', 'request.stop.accepted-within-bounds')).toBe('fail');
    for (const id of ['rule.chat.stop.not-in-output', 'stream.assembled.honours-stop', 'output.stop-sequence.left-out']) {
      expect(verdictOf('stop-always-refused', id), id).toBe('skip (inconclusive)');
      const r = runs.get('stop-always-refused')!.results.find((x) => x.checkId === id && x.model === 'svc-v4-flash')!;
      expect(r.reason, id).toMatch(/because of `stop`: the same request without it was accepted; request\.stop\.accepted-within-bounds fails on it: one defect, reported there$/);
    }
    // The property of valid requests, meeting random requests carrying `stop`, finds the same refusal: reported by its owner.
    expect(verdictOf('stop-always-refused', 'property.valid-requests.accepted')).toBe('skip (inconclusive)');
    const must = runs.get('stop-always-refused')!.results.filter((r) => r.verdict === 'fail' && r.severity === 'must' && r.model === 'svc-v4-flash').map((r) => r.checkId);
    expect(must).toEqual(['request.stop.accepted-within-bounds']);
  });

  test('thinking ignored (never any reasoning): the checks that thinking turned off does not reason are inconclusive, never a pass', () => {
    for (const id of ['rule.chat.thinking.disabled-no-reasoning', 'rule.chat.reasoning-effort.none-equals-disabled', 'rule.chat.reasoning-effort.none-equals-disabled.streamed', 'stream.reasoning.none-when-thinking-disabled']) {
      expect(verdictOf('thinking-no-reasoning', id), id).toBe('skip (inconclusive)');
      expect(verdictOf('clean-before', id), id).toBe('pass');
    }
    // The legacy reasoner handed tools answers as svc-chat (no reasoning): shown only where it reasons without them.
    for (const id of ['rule.legacy.reasoner.tools-handed-to-chat', 'rule.legacy.reasoner.tools-handed-to-chat.streamed']) {
      expect(verdictOf('thinking-no-reasoning', id, 'svc-reasoner'), id).toBe('skip (inconclusive)');
      expect(verdictOf('clean-before', id, 'svc-reasoner'), id).toBe('pass');
    }
  });

  test('usage without the cache fields: the schema check reports the absence once; the checks of their values are inconclusive, never a pass', () => {
    expect(verdictOf('usage-no-cache-fields', 'schema.chat-completion.matches-schema')).toBe('fail');
    for (const id of ['usage.cache.hit-plus-miss-equals-prompt', 'usage.stream-cache.hit-plus-miss-equals-prompt', 'caching.short-prompt.never-hits', 'caching.repeated-prefix.hits']) {
      expect(verdictOf('usage-no-cache-fields', id), id).toMatch(/^(skip \(inconclusive\)|missing)$/);
    }
  });

  test('a 500 to the second case of a rule: the rule fails, naming the case', () => {
    const r = runs.get('second-case-500')!.results.find((x) => x.checkId === 'rule.chat.required-field.missing' && x.model === 'svc-v4-flash');
    expect(r?.verdict).toBe('fail');
    expect(r?.failures?.map((f) => f.message)).toEqual([expect.stringMatching(/^case 2 of 2: .*expected HTTP 400, got 500$/)]);
  });

  test('usage in a `choices: []` chunk after the final chunk (the usage carrier): only stream.usage.in-final-chunk reports it, advisory', () => {
    const failing = runs.get('stream-usage-separate-chunk')!.results.filter((r) => r.verdict === 'fail' || r.verdict === 'error');
    expect([...new Set(failing.map((r) => `${r.checkId} ${r.severity}`))]).toEqual(['stream.usage.in-final-chunk advisory']);
  });

  test('a tool call cut off by max_tokens: the checks judging the call are inconclusive', () => {
    for (const id of ['rule.chat.tools.finish-reason-tool-calls', 'stream.assembled.tool-calls-add-up']) expect(verdictOf('tool-call-cut-off', id), id).toBe('skip (inconclusive)');
  });
});

describe('parity compares answers, not schemas', () => {
  test('both bases answering with the same defect are in parity (the schema checks report the defect once)', () => {
    const run = runs.get('completion-wrong-object')!;
    expect(run.results.filter((r) => r.checkId === 'schema.chat-completion.matches-schema').map((r) => r.verdict)).toContain('fail');
    expect(run.results.filter((r) => r.checkId === 'bases.v1.chat-parity').map((r) => r.verdict)).toEqual(['pass', 'pass']);
  });
});

describe('many runs in one process', () => {
  test('leave no signal listener behind and the exit code as it was', () => {
    expect(runs.size).toBe(FAULTS.length + 4);
    expect({ SIGINT: process.listenerCount('SIGINT'), SIGTERM: process.listenerCount('SIGTERM'), exitCode: process.exitCode }).toEqual(before);
  });
});

describe('the catalogue as a whole', () => {
  test('faults of rules below must are reported at their level and leave the exit code 0', () => {
    const belowMust = FAULTS.filter((f) => !isPremise(f) && !NEEDS_STRICT.has(f.id) && runs.get(f.id)!.code === 0).map((f) => f.id).sort();
    expect(belowMust).toEqual(BELOW_MUST);
  });

  test('every check can fail: each fails under some fault, or is listed here with the reason it cannot', () => {
    const failedSomewhere = new Set([...runs.entries()].filter(([n]) => !n.startsWith('clean-')).flatMap(([, r]) => r.results.filter((x) => x.verdict === 'fail').map((x) => x.checkId)));
    // gateway.* checks run only against the harness as a gateway's upstream: cli/gateway.test.ts fails each under a gateway of one fault.
    const never = registry.all().filter((c) => c.upstream !== true).map((c) => c.id).filter((id) => !failedSomewhere.has(id)).sort();
    expect(never).toEqual(CANNOT_FAIL_AGAINST_FAULTS);
  });
});

/**
 * Behaviours a user would call broken that the description's plain meaning rules out (a total is a
 * sum, in usage and in a balance; SSE is text/event-stream, a stop sequence ends the output, "model
 * id used" names a model...): under each, a check covering the broken entry fails at must.
 */
const ENTAILED_AT_MUST: string[] = [
  'usage-total-wrong',
  'usage-cache-sum-wrong',
  'balance-total-not-sum',
  'usage-no-cache-fields',
  'stream-json-content-type',
  'stop-sequence-ignored',
  'models-list-missing-current',
  'created-in-milliseconds',
  'model-unknown-in-answer',
  'prefix-ignored',
  'stream-reasoning-when-disabled',
  'v1-strips-fields',
  'tool-call-unoffered-function',
  'tool-result-refused',
  'stream-no-choices',
  'answers-crossed',
  'load-answers-crossed',
  'load-streams-cut',
  'load-usage-dropped',
  // text as users write it: content is a string in any script, and JSON text is characters
  'non-ascii-500',
  'non-ascii-mangled',
  'non-ascii-split-surrogates',
  'non-ascii-stop-ignored',
  // A `choices: []` chunk that is no usage carrier (streaming.yaml usage_carrier) is read as the message's last chunk.
  'stream-empty-chunk-after-final',
  'stream-usage-chunk-no-final',
  // Stated: "Only `content` of an assistant turn is sent back", in thinking mode too.
  'thinking-plain-turn-needs-reasoning',
  'load-streams-crossed',
  'load-model-renamed',
];

/**
 * Checks no fault of the emulator breaks, each with a reason. Empty: every check of the catalogue
 * fails under some fault. Adding a check here is a decision to write down.
 */
const CANNOT_FAIL_AGAINST_FAULTS: string[] = [];

/**
 * Faults whose rule the description does not state or entail, so the run reports them without
 * failing: the id shape and the argument schema are should, and so are caching hits; the error
 * code's type is only shown in a sample (advisory); the messages format beyond its content array
 * (stream order, tool use, `stop_reason`, `type: "error"`), where a stream's usage rides, a FIM stream and V4 production's demand
 * for `reasoning_content` in thinking tool-call turns are not described (advisory), nor is a
 * reply's media type, nor a tool call's `index` in a stream (only a client breaks on them: client.openai.chat,
 * client.anthropic.messages, client.openai.stream-tool-calls). Usage sums,
 * the stream's content type, `created` in seconds and the rest of meanings.yaml are entailed: must.
 */
const BELOW_MUST: string[] = [
  'cache-never-hits',
  'completion-bare-uuid-id',
  'completion-text-content-type',
  'error-code-number',
  'fim-stream-ignored',
  'load-no-recovery',
  'load-requests-hung',
  'messages-error-chat-shape',
  'messages-stop-reason-chat-style',
  'messages-stream-out-of-order',
  'messages-text-content-type',
  'messages-tool-result-refused',
  'messages-tools-ignored',
  'stream-tool-call-no-index',
  'stream-usage-separate-chunk',
  'thinking-tool-turn-needs-reasoning',
  'tool-arguments-off-schema',
];

describe('hand-offs', () => {
  const ids = new Set(registry.all().map((c) => c.id));
  test('every result that names another check in its reason names it as data, settled (runner/handoff.ts)', () => {
    const free = [...runs.entries()].flatMap(([name, run]) =>
      run.results
        .filter((r) => r.verdict === 'skip' && r.handedTo === undefined && r.reason !== undefined && [...ids].some((id) => id !== r.checkId && r.reason!.includes(id)))
        .map((r) => `${name}: ${key(r)}: ${r.reason}`),
    );
    expect(free).toEqual([]);
  });

  test('every hand-off names a check of the registry, and none is left pending', () => {
    const all = [...runs.values()].flatMap((run) => run.results);
    const handed = all.flatMap((r) => [...(r.handedTo ?? []).map((h) => h.check), ...(r.failures ?? []).flatMap((f) => (f.ownedBy === undefined ? [] : [f.ownedBy]))]);
    expect(handed.length).toBeGreaterThan(0);
    expect(handed.filter((id) => !ids.has(id))).toEqual([]);
    // A settled hand-off that stands is a skip naming its check; one that did not is a failure: never both.
    expect(all.filter((r) => r.verdict === 'skip' && r.failures !== undefined).map(key)).toEqual([]);
  });
});

