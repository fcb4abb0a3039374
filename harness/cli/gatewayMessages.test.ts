import { readFileSync } from 'node:fs';
import { deadPort } from '#harness/testing/httpTestServer.ts';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult, Severity } from '#harness/core/outcome.ts';
import { MESSAGES_BASE_PATH } from '#harness/core/messagesPaths.ts';
import { buildRegistry } from '#harness/checks/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { startGatewayProxy } from '#harness/testing/gatewayProxy.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { recordedThirdParties } from '#harness/testing/thirdParty/recorded.ts';
import { startTranslatingGateway, TRANSLATION_FAULTS, type TranslationFault } from '#harness/testing/translatingGateway.ts';
import { main } from './main.ts';

/**
 * A gateway that serves the messages format from a chat-completions upstream (issue 49, item 3),
 * through the real CLI: the harness as its upstream, the gateway.messages.* checks judging what the
 * translation changed. Each fault (one a real gateway was seen doing) fails the check of that rule
 * at the strength the description gives, with both sides in the failure; the faithful translation,
 * and a gateway passing the format on unchanged, judge every check and fail none.
 */
const KEY_ENV = 'SVC_GATEWAY_MESSAGES_TEST_KEY';
process.env[KEY_ENV] = 'sk-gateway-messages-test-key-0123';

/** Each fault: the check it fails, its severity, and what its failure must show of the two sides. */
const BREAKS: Record<Exclude<TranslationFault, 'faithful'>, { check: string; severity: Severity; shows: RegExp[] }> = {
  'stop-sequences-dropped': { check: 'gateway.messages.parameters-translated', severity: 'advisory', shows: [/stop_sequences \(as stop\): the client sent \["XYZZY-END"\], and the upstream never got it/, /the client sent \{.*"stop_sequences":\["XYZZY-END"\]/, /the upstream got \{(?!.*"stop").*\}/] },
  'top-p-dropped': { check: 'gateway.messages.parameters-translated', severity: 'advisory', shows: [/top_p: the client sent 0\.5, and the upstream never got it/, /the client sent \{.*"top_p":0\.5/] },
  'thinking-dropped': { check: 'gateway.messages.parameters-translated', severity: 'advisory', shows: [/thinking: the client sent \{"type":"enabled","budget_tokens":1024\}, and the upstream never got it/, /the upstream got \{.*"reasoning":\{"effort":"medium"/] },
  'message-start-input-zero': { check: 'gateway.messages.usage-passed-on', severity: 'advisory', shows: [/message_start input: the upstream said prompt_tokens \d+, the client was told input_tokens 0/, /the upstream's answer: .*"prompt_tokens":\d+/, /the client's: event: message_start\ndata: .*"input_tokens":0/] },
  'content-filter-as-stop-sequence': { check: 'gateway.messages.stop-reason-mapped', severity: 'advisory', shows: [/finish_reason "content_filter" reached the client as stop_reason "stop_sequence", which is what "stop" becomes/, /the upstream's answer: .*"finish_reason":"content_filter"/, /the client's: .*"stop_reason":"stop_sequence"/] },
  'own-error-envelope': { check: 'gateway.messages.error-body-passed-on', severity: 'should', shows: [/error\.type: the upstream sent "invalid_request_error", the client was told "api_error"/, /error\.message: the upstream sent "`max_tokens`/] },
};

interface Run {
  code: number;
  results: CheckResult[];
}

const freshDir = tempDirs('svc-gateway-messages-');

/** `run --only gateway.messages` (the messages base at `messagesBase` below the gateway's) through a gateway started on the upstream port's URL; a port taken meanwhile is tried again. */
async function through(start: (upstream: string) => Promise<{ url: string; close(): Promise<void> }>, messagesBase = ''): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const port = await deadPort();
    const gateway = await start(`http://127.0.0.1:${port}`);
    const dir = freshDir();
    const io = captureIO();
    try {
      const code = await main(['run', '--base-url', gateway.url, '--messages-base-url', `${gateway.url}${messagesBase}`, '--api-key-env', KEY_ENV, '--upstream-port', String(port), '--only', 'gateway.messages', '--report-dir', join(dir, 'reports'), '--json', join(dir, 'run.json'), '--quiet'], io);
      if (code === 2 && io.text().includes('EADDRINUSE') && attempt < 3) continue;
      if (code === 2) throw new Error(io.text());
      const all = JSON.parse(readFileSync(join(dir, 'run.json'), 'utf8')) as { records: { results: CheckResult[] }[] };
      return { code, results: all.records.flatMap((r) => r.results) };
    } finally {
      await gateway.close();
    }
  }
}

const runs = new Map<string, Run>();
beforeAll(async () => {
  await Promise.all([
    ...TRANSLATION_FAULTS.map(async (f) => runs.set(f, await through((up) => startTranslatingGateway(up, f)))),
    through((up) => startGatewayProxy(up, 'transparent'), MESSAGES_BASE_PATH).then((r) => runs.set('passed on unchanged', r)),
  ]);
}, 120_000);

const failing = (r: Run) => r.results.filter((x) => x.verdict === 'fail').map((x) => [x.checkId, x.severity]);
const CHECKS = buildRegistry(loadSpec().spec).all().filter((c) => c.id.startsWith('gateway.messages.')).map((c) => c.id);

describe('a translating gateway of one fault fails the check of that rule, both sides in its failure', () => {
  test.each(Object.entries(BREAKS))('%s', (fault, { check, severity, shows }) => {
    const run = runs.get(fault)!;
    expect(failing(run)).toEqual([[check, severity]]);
    // Advisory and should failures leave the run green (--strict fails them).
    expect(run.code).toBe(0);
    const message = run.results.find((r) => r.checkId === check)!.failures!.map((f) => f.message).join('\n');
    for (const s of shows) expect(message, message).toMatch(s);
  });
});

describe('a faithful gateway judges every check and fails none', () => {
  test.each(['faithful', 'passed on unchanged'])('%s', (name) => {
    const run = runs.get(name)!;
    expect(run.results.map((r) => r.checkId).sort()).toEqual([...CHECKS].sort());
    expect(run.results.filter((r) => r.verdict !== 'pass').map((r) => `${r.checkId}: ${r.reason}`)).toEqual([]);
    expect(run.code).toBe(0);
  });

  test('the translation is named: the chat format asked upstream, the cache read, each stop reason', () => {
    const run = runs.get('faithful')!;
    const reason = (id: string) => run.results.find((r) => r.checkId === id)!.reason ?? '';
    expect(reason('gateway.messages.parameters-translated')).toContain('asked upstream in the chat format');
    expect(reason('gateway.messages.usage-passed-on')).toMatch(/tokens read from the cache upstream/);
    expect(reason('gateway.messages.stop-reason-mapped')).toMatch(/finish_reason "length" -> stop_reason "max_tokens".*finish_reason "tool_calls" -> stop_reason "tool_use".*finish_reason "content_filter" -> stop_reason "refusal"/);
    expect(runs.get('passed on unchanged')!.results.find((r) => r.checkId === 'gateway.messages.parameters-translated')!.reason).toContain('asked upstream in the messages format');
  });
});

describe('claude-code-router 1.0.73 in gateway mode (its recordings, replayed against these pins by recordedThirdParty.test.ts)', () => {
  test('every gateway.* check is judged through one of its two routes, and the translation faults are caught', async () => {
    const all = await recordedThirdParties();
    const routes = ['claude-code-router-gateway', 'claude-code-router-messages-gateway'].map((n) => all.find((r) => r.name === n)!);
    const judged = (id: string) => routes.some((r) => r.verdicts[id] !== undefined && r.verdicts[id]!.verdict !== 'skip');
    const gateway = buildRegistry(loadSpec().spec).all().filter((c) => c.upstream === true).map((c) => c.id);
    expect(gateway.filter((id) => !judged(id))).toEqual([]);
    const messages = routes[1]!.verdicts;
    expect(messages['gateway.messages.parameters-translated']).toMatchObject({ verdict: 'fail', why: expect.stringMatching(/stop_sequences and top_p dropped.*thinking sent as reasoning/) });
    expect(messages['gateway.messages.usage-passed-on']).toMatchObject({ verdict: 'fail', why: expect.stringMatching(/message_start says input_tokens 0/) });
  });
});
