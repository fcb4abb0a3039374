import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult, TokenUse } from '#harness/core/outcome.ts';
import { HarnessError } from '#harness/core/errors/index.ts';
import { startEmulator, type FaultId, type RunningEmulator } from '#harness/emulator/index.ts';
import { chatRequest } from '#harness/derive/arbitraries/index.ts';
import { createCheckContext, type Sender } from '#harness/runner/checkContext.ts';
import { CheckTracker } from '#harness/runner/checkTracker.ts';
import { executeCheck } from '#harness/runner/execute.ts';
import type { RunConfig } from '#harness/runner/runConfig.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec, TypeExpr } from '#harness/spec/model.ts';
import { createTransport, type Transport } from '#harness/transport/index.ts';
import type { Check } from '../define.ts';
import { propertyChecks } from './index.ts';
import { AHEAD, runProperty, SHRINK_BUDGET } from './runProperty.ts';
import { routesOf } from '#harness/runner/servedGate.ts';

const { spec } = loadSpec();
const NOW = '2026-06-01T00:00:00Z';
const byId = (id: string): Check => propertyChecks(spec).find((c) => c.id === id)!;
const VALID = byId('property.valid-requests.accepted');
const INVALID = byId('property.invalid-requests.refused-with-spec-status');
const CURRENT = Object.entries(spec.models).filter(([, m]) => m.kind === 'current').map(([id]) => id);

interface Target {
  emu: RunningEmulator;
  transport: Transport;
}

const targets = new Map<string, Target>();
const key = (faults: readonly FaultId[]) => faults.join(',') || 'clean';

beforeAll(async () => {
  for (const faults of [[], ['bounds-too-tight'], ['bounds-not-enforced']] as FaultId[][]) {
    const emu = await startEmulator({ spec, now: () => new Date(NOW), faults });
    targets.set(key(faults), { emu, transport: createTransport({ secrets: [emu.apiKey], concurrency: 4, retry: spec.errors.retry }) });
  }
});

afterAll(async () => {
  for (const t of targets.values()) {
    await t.transport.close();
    await t.emu.close();
  }
});

function config(emu: RunningEmulator, runs: number, seed: number): RunConfig {
  return {
    target: { kind: 'emulator', baseUrl: emu.url, messagesBaseUrl: `${emu.url}/anthropic` },
    apiKey: emu.apiKey,
    apiKeyEnv: 'SVC_API_KEY',
    models: CURRENT,
    modelMap: {},
    concurrency: 4,
    strict: false,
    runs,
    seed,
    referenceTime: { value: NOW, source: 'flag' },
    lifecycleToleranceSeconds: 120,
  };
}

/** One check on one model of the emulator with these faults, through the runner's own executeCheck. */
async function run(check: Check, faults: FaultId[], { model = 'svc-v4-flash', runs = 20, seed = 1 } = {}): Promise<{ result: CheckResult; usage: TokenUse; requests: number }> {
  const target = targets.get(key(faults))!;
  const tracker = new CheckTracker();
  const before = target.transport.stats().requests;
  const ctx = createCheckContext(spec, config(target.emu, runs, seed), target.transport, model, tracker);
  const result = await executeCheck(check, ctx, tracker);
  return { result, usage: tracker.observed, requests: target.transport.stats().requests - before };
}

/** Sends a body as it is to an emulator, and returns the status. */
async function statusOf(faults: FaultId[], body: unknown): Promise<number> {
  const { emu } = targets.get(key(faults))!;
  const res = await fetch(`${emu.url}/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await res.text();
  return res.status;
}

/**
 * Fields of a request that sit exactly on a bound of the spec: a numeric minimum or maximum, an
 * item limit, the last of a list of allowed values (bounds-too-tight takes those away).
 */
function fieldsAtBounds(s: Spec, body: Record<string, unknown>): string[] {
  const fields = s.objects.chat_completion_request!.fields;
  const at = (name: string, f: TypeExpr, v: unknown): boolean =>
    v === f.minimum || v === f.maximum || (Array.isArray(v) && v.length === f.max_items) || (f.enum !== undefined && f.enum.length > 1 && v === f.enum.at(-1)) || (f.one_of ?? []).some((a) => at(name, a, v));
  return Object.entries(body).filter(([name, v]) => fields[name] && at(name, fields[name]!, v)).map(([name]) => name);
}

/** Requests a run spends once on asking whether each route is served, plus a streamed probe per chat route. */
const PROBES = routesOf(loadSpec().spec).length + routesOf(loadSpec().spec).filter((r) => r.endpoint === 'chat_completions').length;

describe('against the clean emulator', () => {
  test.each(CURRENT)('both checks pass on %s with 20 runs, and accepted answers are counted', async (model) => {
    const valid = await run(VALID, [], { model });
    expect(valid.result.verdict, JSON.stringify(valid.result.failures ?? valid.result.reason)).toBe('pass');
    // 20 runs, and the probes of whether each route is served (and a stream), asked once per run (servedGate.ts).
    expect(valid.requests).toBe(20 + PROBES);
    expect(valid.usage.promptTokens).toBeGreaterThan(0);
    expect(valid.result.tokens?.completionTokens).toBeGreaterThan(0);
    const invalid = await run(INVALID, [], { model });
    expect(invalid.result.verdict, JSON.stringify(invalid.result.failures ?? invalid.result.reason)).toBe('pass');
    // And the control: the smallest valid request, accepted, before a refusal is credited.
    expect(invalid.requests).toBe(20 + PROBES + 1);
  });
});

describe('property.valid-requests.accepted against bounds-too-tight (values at the bounds refused)', () => {
  let outcome: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    outcome = await run(VALID, ['bounds-too-tight']);
  });

  test('fails, with a shrunk counterexample at a bound', async () => {
    expect(outcome.result.verdict).toBe('fail');
    const [f] = outcome.result.failures!;
    const body = f!.evidence!.request.body as Record<string, unknown>;
    expect(fieldsAtBounds(spec, body)).not.toEqual([]);
    // Shrunk: the required fields, and little beside the field at its bound (and a companion).
    expect(Object.keys(body).length).toBeLessThanOrEqual(4);
    expect(f!.message).toMatch(/^a valid request was refused with HTTP 400 \(error: .+\) — shrunk counterexample \(\d+ shrinks; seed 1, path "[0-9:]+"\), sent again with the same answer: \{/);
    // The exact request is in the message, and it is what the evidence shows was sent.
    expect(f!.message).toContain(JSON.stringify(body));
    // The faulty emulator refuses it; the clean one, which keeps the spec's bounds, accepts it.
    expect(await statusOf(['bounds-too-tight'], body)).toBe(400);
    expect(await statusOf([], body)).toBe(200);
  });

  test('carries seed and path, and the runner adds the curl command from the evidence', () => {
    const { reproducer } = outcome.result.failures![0]!;
    expect(reproducer?.seed).toBe(1);
    expect(reproducer?.path).toMatch(/^\d+(:\d+)*$/);
    expect(reproducer?.curl).toMatch(/^curl .*\/chat\/completions/s);
    expect(reproducer?.curl).toContain('${SVC_API_KEY}');
  });

  test('replaying seed and path with fast-check gives the counterexample at once', () => {
    const { reproducer, evidence } = outcome.result.failures![0]!;
    const out = fc.check(fc.property(chatRequest(spec, { model: 'svc-v4-flash' }), () => false), { seed: reproducer!.seed!, path: reproducer!.path!, numRuns: 20, endOnFailure: true });
    expect(out.counterexample?.[0]).toEqual(evidence!.request.body);
  });

  test('the same seed gives the same counterexample twice', async () => {
    const again = await run(VALID, ['bounds-too-tight']);
    const a = outcome.result.failures![0]!;
    const b = again.result.failures![0]!;
    expect(b.message).toBe(a.message);
    expect(b.reproducer).toEqual(a.reproducer);
    expect(b.evidence!.request.body).toEqual(a.evidence!.request.body);
    // Another seed finds its own (possibly different) path.
    const other = await run(VALID, ['bounds-too-tight'], { seed: 7 });
    expect(other.result.verdict).toBe('fail');
    expect(other.result.failures![0]!.reproducer?.seed).toBe(7);
  });
});

describe('property.invalid-requests.refused-with-spec-status against bounds-not-enforced', () => {
  test('fails: a value beyond a bound is answered 200, shrunk, re-checked, with seed and path', async () => {
    const { result } = await run(INVALID, ['bounds-not-enforced']);
    expect(result.verdict).toBe('fail');
    const [f] = result.failures!;
    expect(f!.message).toMatch(/^`[a-z_]+` (= -?[0-9.e+]+|with \d+ items) \((minimum|maximum|at most) .+\), which breaks (bound\.out-of-range|chat\.max-tokens\.per-model-maximum): expected HTTP 400 or 422, got 200 — shrunk counterexample/);
    expect(f!.evidence!.response?.status).toBe(200);
    expect(f!.reproducer).toMatchObject({ seed: 1, path: expect.stringMatching(/^\d+(:\d+)*$/) });
    expect(f!.specRef).toMatch(/^rules\./);
    expect(await statusOf([], f!.evidence!.request.body)).toBe(400);
  });

  test('the same seed gives the same counterexample twice', async () => {
    const a = (await run(INVALID, ['bounds-not-enforced'])).result.failures![0]!;
    const b = (await run(INVALID, ['bounds-not-enforced'])).result.failures![0]!;
    expect(b.message).toBe(a.message);
    expect(b.reproducer).toEqual(a.reproducer);
  });
});

describe('runProperty', () => {
  const unusedSender: Sender = {
    send: () => Promise.reject(new Error('no request is sent in these tests')),
  };
  const ctxFor = (runs: number, seed: number) => createCheckContext(spec, config(targets.get('clean')!.emu, runs, seed), unusedSender, 'svc-v4-flash');
  const fakeResponse = (status = 400) => ({ status, headers: {}, exchange: { request: { method: 'POST', url: 'http://x/chat/completions', headers: {} }, attempts: 1 }, text: async () => '', json: async () => ({}), events: async function* () {} });

  test('reports a failure only when the shrunk counterexample fails again: a flaky one is a pass with a note', async () => {
    const seen = new Set<number>();
    const outcome = await runProperty(
      ctxFor(50, 3),
      {
        arbitrary: fc.integer({ min: 0, max: 1000 }),
        // Fails for values from 10, but only the first time a value is sent.
        judge: async (v) => {
          const first = !seen.has(v);
          seen.add(v);
          return v >= 10 && first ? { message: `${v} failed`, res: fakeResponse() } : undefined;
        },
      },
      String,
    );
    expect(outcome).toMatchObject({ verdict: 'pass', note: expect.stringMatching(/^a failure found after \d+ of 50 runs \(seed 3, path "[0-9:]+"\) did not recur when its shrunk counterexample was sent again: 10$/) });
  });

  test('a failure that recurs keeps the shrunk value, the seed and the path', async () => {
    const outcome = await runProperty(ctxFor(50, 3), { arbitrary: fc.integer({ min: 0, max: 1000 }), judge: async (v) => (v >= 10 ? { message: `${v} failed`, res: fakeResponse() } : undefined) }, String);
    expect(outcome.verdict).toBe('fail');
    if (outcome.verdict !== 'fail') return;
    expect(outcome.failures[0]).toMatchObject({ message: expect.stringMatching(/^10 failed — shrunk counterexample \(\d+ shrinks; seed 3, path "[0-9:]+"\), sent again with the same answer: 10$/), reproducer: { curl: '', seed: 3 } });
  });

  test('an error while sending stops the run at once and is rethrown (the check errors, it does not fail)', async () => {
    let calls = 0;
    const run = runProperty(ctxFor(50, 3), { arbitrary: fc.integer(), judge: async () => { calls += 1; throw new HarnessError('HARNESS_TIMEOUT', 'no answer'); } }, String);
    await expect(run).rejects.toThrow(/no answer/);
    expect(calls).toBe(1);
  });

  test('a value answered "not now" on every try is not judged: it is skipped, never a failure, and costs at most one more value', async () => {
    let calls = 0;
    // Every third value is turned away with a 429; the others hold.
    const outcome = await runProperty(ctxFor(30, 3), { arbitrary: fc.integer(), judge: async () => (++calls % 3 === 0 ? { message: 'turned away', res: fakeResponse(429) } : undefined) }, String);
    expect(outcome).toMatchObject({ verdict: 'pass', cases: 30 });
    expect(calls).toBeLessThanOrEqual(60);
    // Every value turned away: the failure is the 429 (the runner makes it inconclusive, runner/execute.ts), after at most twice the runs.
    calls = 0;
    const refused = await runProperty(ctxFor(10, 3), { arbitrary: fc.integer(), judge: async () => (calls++, { message: 'turned away', res: fakeResponse(503) }) }, String);
    expect(refused.verdict).toBe('fail');
    if (refused.verdict === 'fail') expect(refused.failures.map((f) => f.evidence?.response?.status ?? f.message)).toEqual(['turned away']);
    expect(calls).toBeLessThanOrEqual(21);
  });

  test('values are judged ahead: the first alone, then the rest at once; each is judged once, and it is the value fast-check asks', async () => {
    for (const arbitrary of [fc.integer(), fc.record({ a: fc.integer(), b: fc.option(fc.string()), c: fc.array(fc.double()) })] as fc.Arbitrary<unknown>[]) {
      const judged: string[] = [];
      let inFlight = 0;
      const concurrency: number[] = [];
      const outcome = await runProperty(ctxFor(2 * AHEAD, 5), {
        arbitrary,
        judge: async (v) => {
          judged.push(JSON.stringify(v));
          concurrency.push(++inFlight);
          await new Promise((r) => setTimeout(r, 5));
          inFlight -= 1;
          return undefined;
        },
      }, String);
      expect(outcome).toMatchObject({ verdict: 'pass', cases: 2 * AHEAD });
      // Every value judged was asked: none twice, none fast-check did not draw.
      expect(new Set(judged).size).toBe(judged.length);
      expect(judged).toHaveLength(2 * AHEAD);
      expect(concurrency[0]).toBe(1);
      expect(Math.max(...concurrency)).toBe(AHEAD);
    }
  });

  test('while shrinking, a value fast-check asks again is judged once, and the check says it now waits on a long chain; the shrunk counterexample is still sent again', async () => {
    const sent = new Map<string, number>();
    const lengthened: number[] = [];
    const ctx = { ...ctxFor(50, 3), lengthen: (n: number) => lengthened.push(n) };
    const outcome = await runProperty(ctx, {
      arbitrary: fc.array(fc.integer({ min: 0, max: 20 }), { maxLength: 6 }),
      judge: async (v) => {
        const key = JSON.stringify(v);
        sent.set(key, (sent.get(key) ?? 0) + 1);
        return v.some((x) => x >= 10) ? { message: `${key} failed`, res: fakeResponse() } : undefined;
      },
    }, JSON.stringify);
    expect(outcome.verdict).toBe('fail');
    expect(lengthened).toEqual([SHRINK_BUDGET]);
    const twice = [...sent].filter(([, n]) => n > 1).map(([k]) => k);
    // The shrunk counterexample alone: sent once more to see it fail again.
    expect(twice).toEqual(['[10]']);
    expect(sent.get('[10]')).toBe(2);
  });

  test('once a check lengthens its chain, its requests wait for a slot ahead of checks with fewer round trips left', async () => {
    const priorities: (number | undefined)[] = [];
    const sender: Sender = { send: (r) => (priorities.push(r.priority), Promise.reject(new Error('not sent'))) };
    const ctx = createCheckContext(spec, config(targets.get('clean')!.emu, 10, 1), sender, 'svc-v4-flash', undefined, undefined, 2);
    const ask = () => ctx.send({ base: 'base_url', method: 'POST', path: '/svc-no-such-route', body: {} }).catch(() => undefined);
    for (let i = 0; i < 3; i++) await ask();
    ctx.lengthen!(SHRINK_BUDGET);
    for (let i = 0; i < 2; i++) await ask();
    expect(priorities).toEqual([2, 1, 0, SHRINK_BUDGET, SHRINK_BUDGET - 1]);
  });

  test('shrinking stops after its budget of requests', async () => {
    let calls = 0;
    const outcome = await runProperty(ctxFor(10, 3), { arbitrary: fc.array(fc.integer(), { minLength: 50, maxLength: 50 }), judge: async () => { calls += 1; return { message: 'always', res: fakeResponse() }; } }, (v) => String(v.length));
    expect(outcome.verdict).toBe('fail');
    expect(calls).toBeLessThanOrEqual(10 + 100 + 1);
  });
});
