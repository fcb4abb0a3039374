import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { COVERED_OPERATIONS, INVALID_CLASSES_ID } from '#harness/checks/property/invalidClasses.ts';
import { runChecks } from '#harness/runner/runChecks.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { emulatorTarget, type Target } from '#harness/targets/target.ts';
import { emulatorRunConfig } from '#harness/testing/emulatorRunConfig.ts';
import { startProxy, type ProxyOptions } from '#harness/testing/proxy.ts';
import { RUN_OPTIONS } from './runOptions.ts';

/**
 * Endpoints that each crash on (answer 500), or serve (forward as if valid), one class of invalid
 * request, as a gateway in front of a valid service does: each is caught at default settings (10
 * random runs, the coverage phase's default cap), by the coverage phase, with the class named and a
 * reproducer. The first four are the classes issue 32 names; the rest it does not.
 */
const { spec } = loadSpec();
const NOW = new Date('2026-06-01T00:00:00Z');
const MODEL = 'svc-v4-flash';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const crash = { status: 500, body: { error: { message: 'internal error', type: 'server_error', code: 'internal_error', param: null } } };
const bodyAt = (at: string) => (path: string, raw: Buffer): unknown => {
  if (path !== at) return undefined;
  try {
    return JSON.parse(raw.toString('utf8'));
  } catch {
    return undefined;
  }
};
const chatBody = bodyAt('/chat/completions');
const fimBody = bodyAt('/beta/completions');
const messagesBody = bodyAt('/anthropic/v1/messages');
const firstMessage = (b: unknown): Json | undefined => (isObject(b) && Array.isArray(b.messages) && isObject(b.messages[0]) ? b.messages[0] : undefined);
const firstTool = (b: unknown): Json | undefined => (isObject(b) && Array.isArray(b.tools) && isObject(b.tools[0]) ? b.tools[0] : undefined);

const crashesWhen = (when: (body: unknown) => boolean, read = chatBody): ProxyOptions => ({ answer: (_req, path, raw) => (when(read(path, raw)) ? crash : undefined) });
const FIM_ID = COVERED_OPERATIONS.find((o) => o.endpoint === 'fim_completions')!.id;
const MESSAGES_ID = COVERED_OPERATIONS.find((o) => o.endpoint === 'messages')!.id;

/** Each endpoint: how it breaks, the class the coverage phase names for it, and the check (and model) that does. */
const BROKEN: { name: string; options: ProxyOptions; caught: string; check?: string; model?: string }[] = [
  { name: '500 for `messages` that is not an array', options: crashesWhen((b) => isObject(b) && b.messages !== undefined && !Array.isArray(b.messages)), caught: 'type messages ' },
  { name: '500 for a `model` that is not a string', options: crashesWhen((b) => isObject(b) && b.model !== undefined && typeof b.model !== 'string'), caught: 'type model ' },
  { name: '500 for a message role the format does not have', options: crashesWhen((b) => { const role = firstMessage(b)?.role; return typeof role === 'string' && !['system', 'user', 'assistant', 'tool'].includes(role); }), caught: 'enum messages.*.role off-list' },
  { name: '`tools` that is not an array served as if absent', options: { rewriteRequest: (b) => (isObject(b) && b.tools !== undefined && !Array.isArray(b.tools) ? { ...b, tools: undefined } : undefined) }, caught: 'type tools ' },
  // Classes the issue does not name.
  { name: '500 for a `thinking.type` off its list', options: crashesWhen((b) => isObject(b) && isObject(b.thinking) && typeof b.thinking.type === 'string' && !['enabled', 'disabled'].includes(b.thinking.type)), caught: 'enum thinking.type off-list' },
  { name: 'a tool without its function, a stand-in filled in and served', options: { rewriteRequest: (b) => { const t = firstTool(b); if (t && t.function === undefined) t.function = { name: 'stand_in' }; return b; } }, caught: 'required tools.*.function missing' },
  { name: '`response_format` that is not an object, dropped and served', options: { rewriteRequest: (b) => (isObject(b) && b.response_format !== undefined && !isObject(b.response_format) ? { ...b, response_format: undefined } : undefined) }, caught: 'type response_format ' },
  // The other operations' requests.
  { name: '500 for a fill-in-the-middle `prompt` that is not a string', options: crashesWhen((b) => isObject(b) && b.prompt !== undefined && typeof b.prompt !== 'string', fimBody), caught: 'type prompt ', check: FIM_ID, model: 'svc-v4-pro' },
  { name: 'a messages-format `max_tokens` that is not an integer, replaced and served', options: { rewriteRequest: (b) => (isObject(b) && b.max_tokens !== undefined && !Number.isInteger(b.max_tokens) && Array.isArray(b.messages) ? { ...b, max_tokens: 32 } : undefined) }, caught: 'type max_tokens ', check: MESSAGES_ID },
  { name: 'a body that is a JSON array, its first item served', options: { rewriteRequest: (b) => (Array.isArray(b) ? b[0] : undefined) }, caught: 'body (body) array' },
  { name: '500 for a message without `content`', options: crashesWhen((b) => { const m = firstMessage(b); return m !== undefined && !('content' in m); }), caught: 'required messages.*.content missing' },
];

let target: Target;
beforeAll(async () => {
  target = await emulatorTarget(spec, { now: NOW });
});
afterAll(async () => target.close());

async function coverageOn(options: ProxyOptions, check = INVALID_CLASSES_ID, model = MODEL, only = ['property.'], overrides: { coverage?: number } = {}): Promise<{ coverage: CheckResult; random: CheckResult }> {
  const proxy = await startProxy(target.baseUrl, options);
  try {
    const at = { ...target, baseUrl: proxy.url, messagesBaseUrl: target.messagesBaseUrl.replace(target.baseUrl, proxy.url) };
    const { results } = await runChecks(emulatorRunConfig(at, [model], NOW, { only, ...overrides }));
    return { coverage: results.find((r) => r.checkId === check)!, random: results.find((r) => r.checkId === 'property.invalid-requests.refused-with-spec-status')! };
  } finally {
    await proxy.close();
  }
}

describe('the coverage phase at default settings', () => {
  test('a transparent proxy: every class sent is refused as the spec says, and the report counts them', async () => {
    const { coverage: r } = await coverageOn({});
    expect(r.verdict).toBe('pass');
    const classes = r.judged?.classes;
    expect(classes?.sent).toBe(COVERED_OPERATIONS[0]!.cap);
    expect(classes!.sent + classes!.elsewhere.reduce((n, e) => n + e.classes.length, 0) + classes!.notSent.length).toBe(classes!.named);
    expect(r.judged?.cases).toBe(classes?.sent);
  });

  test('--coverage N sends up to N classes per operation: every must class the spec names, or none', async () => {
    const { coverage: all } = await coverageOn({}, INVALID_CLASSES_ID, MODEL, [INVALID_CLASSES_ID], { coverage: 1000 });
    const c = all.judged!.classes!;
    expect(c.sent).toBeGreaterThan(COVERED_OPERATIONS[0]!.cap);
    // What is not sent then is only what a must check does not send: the advisory nulls.
    expect(c.notSent.every((n) => n.class.startsWith('null '))).toBe(true);
    expect(all.verdict).toBe('pass');
    const { coverage: none } = await coverageOn({}, INVALID_CLASSES_ID, MODEL, [INVALID_CLASSES_ID], { coverage: 0 });
    expect([none.verdict, none.skipKind, none.reason]).toEqual(['skip', 'not-applicable', '--coverage 0: the coverage phase sends no class of this operation']);
  });

  test('--coverage in run --help states each operation\'s default cap as COVERED_OPERATIONS declares it', () => {
    const help = RUN_OPTIONS.find((o) => o.flag === 'coverage')!.help.join(' ');
    expect(help).toContain(`default ${COVERED_OPERATIONS.find((o) => o.endpoint === 'chat_completions')!.cap} for the chat request`);
    for (const o of COVERED_OPERATIONS.filter((x) => x.endpoint !== 'chat_completions')) expect(help).toContain(`${o.cap} for fill-in-the-middle and the messages format`);
  });

  test('an endpoint refusing every chat request with 400: no refusal is credited, by either phase (the smallest valid request is refused too)', async () => {
    const refuseAll: ProxyOptions = { answer: (_req, path) => (path === '/chat/completions' ? { status: 400, body: { error: { message: 'no', type: 'invalid_request_error', code: 'invalid_request', param: null } } } : undefined) };
    const { coverage, random } = await coverageOn(refuseAll);
    for (const r of [coverage, random]) expect([r.checkId, r.verdict, r.skipKind, r.reason]).toEqual([r.checkId, 'skip', 'inconclusive', expect.stringMatching(/the smallest valid request is answered HTTP 400 too/)]);
    // Nor is a refusal of a value within the bounds the value's: the same request without it is refused too.
    const accepted = 'request.temperature.accepted-within-bounds';
    const { coverage: within } = await coverageOn(refuseAll, accepted, MODEL, [accepted]);
    expect([within.verdict, within.skipKind, within.reason]).toEqual(['skip', 'inconclusive', expect.stringMatching(/without `temperature`, is answered HTTP 400 too/)]);
  });

  test('an endpoint answering 500 to every chat request: no class is blamed for it (the smallest valid request fails too)', async () => {
    const { coverage, random } = await coverageOn({ answer: (_req, path) => (path === '/chat/completions' ? crash : undefined) });
    for (const r of [coverage, random]) expect([r.checkId, r.verdict, r.skipKind, r.reason]).toEqual([r.checkId, 'skip', 'inconclusive', expect.stringMatching(/the smallest valid request is answered HTTP 500 too/)]);
  });

  test.each(BROKEN.map((b) => [b.name, b] as const))('%s: caught, the class named, with its reproducer', async (_name, b) => {
    const { coverage: r, random } = await coverageOn(b.options, b.check, b.model);
    // The random phase, meeting the same class, reports it there: one defect, one failure.
    expect(random.verdict).not.toBe('fail');
    expect(r.verdict).toBe('fail');
    expect(r.severity).toBe('must');
    const caught = r.failures!.filter((f) => f.defect?.kind === 'status' && f.defect.sent?.startsWith(b.caught));
    expect(caught.map((f) => f.message), r.failures!.map((f) => f.message).join('\n')).not.toEqual([]);
    // Only classes of that field fail (a null there is not an array either): every other class was refused as the spec says.
    const fieldOf = (sent: string | undefined) => sent?.split(' ')[1];
    expect(r.failures!.map((f) => (f.defect?.kind === 'status' ? fieldOf(f.defect.sent) : f.message)).filter((x) => x !== fieldOf(b.caught))).toEqual([]);
    expect(caught[0]!.reproducer?.curl).toMatch(/^curl .*\/(chat\/completions|beta\/completions|anthropic\/v1\/messages)' .*--data-raw /);
  });
});
