import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { globMatcher } from '#harness/checks/selection.ts';
import { featuresOf } from '#harness/spec/features.ts';
import { basisText } from '#harness/spec/basis.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';
import type { ListedCheck, ListedClient } from './list.ts';

const { spec } = loadSpec();
const checks = buildRegistry(spec).all();

async function list(...args: string[]) {
  const io = captureIO();
  const code = await main(['list', ...args], io);
  return { code, out: io.out, err: io.err };
}

async function listJson(...args: string[]): Promise<ListedCheck[]> {
  const { code, out, err } = await list('--json', ...args);
  expect({ code, err }).toEqual({ code: 0, err: [] });
  return JSON.parse(out.join('\n')) as ListedCheck[];
}

describe('svc-conformance list', () => {
  test('--json: every check of the registry, once, in its order, with what the registry says of it', async () => {
    const rows = await listJson();
    expect(rows.map((r) => r.id)).toEqual(checks.map((c) => c.id));
    for (const check of checks) {
      const row = rows.find((r) => r.id === check.id)!;
      expect(row, check.id).toMatchObject({ title: check.title, area: check.area, severity: check.severity, basis: basisText(check.basis), specRefs: check.specRefs });
    }
  });

  test('--json shape: an array of objects with exactly these keys and types', async () => {
    const features = featuresOf(spec);
    for (const row of await listJson()) {
      expect(Object.keys(row).sort(), row.id).toEqual(['area', 'basis', 'features', 'id', 'models', 'severity', 'specRefs', 'title']);
      for (const key of ['id', 'title', 'area', 'basis'] as const) expect(typeof row[key], `${row.id} ${key}`).toBe('string');
      expect(['must', 'should', 'advisory']).toContain(row.severity);
      expect(row.specRefs.length, row.id).toBeGreaterThan(0);
      // Every check runs on some model of the spec, and only on models of the spec.
      expect(row.models.length, row.id).toBeGreaterThan(0);
      for (const m of row.models) expect(Object.keys(spec.models)).toContain(m);
      for (const f of row.features) expect(features).toContain(f);
    }
  });

  test('features known from spec entries: the caching checks need caching, a rule check needs none', async () => {
    const rows = await listJson('caching.');
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows.filter((r) => r.specRefs.some((ref) => ref.startsWith('context_caching')))) expect(row.features, row.id).toEqual(['caching']);
    expect((await listJson('rule.chat.messages.non-empty'))[0]?.features).toEqual([]);
  });

  test('text: a header, one aligned line per check, then the count and what features means', async () => {
    const { code, out, err } = await list();
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(checks.length + 3);
    expect(out[0]).toMatch(/^ID\s+AREA\s+SEVERITY\s+BASIS\s+FEATURES\s+SPEC REFS$/);
    const areaColumn = out[0]!.indexOf('AREA');
    checks.forEach((c, i) => {
      const line = out[i + 1]!;
      expect(line.startsWith(`${c.id} `), line).toBe(true);
      expect(line.slice(areaColumn).startsWith(`${c.area} `), line).toBe(true);
      expect(line.endsWith(c.specRefs.join(', ')), line).toBe(true);
    });
    expect(out.at(-2)).toMatch(new RegExp(`^${checks.length} checks;`));
    expect(out.at(-1)).toContain('known per request only');
  });

  test('patterns filter as run --only does: part of an id, or a glob; several (or a comma list) select any match', async () => {
    const patterns = ['rule.chat.max-tokens', 'auth.*'];
    const expected = checks.filter((c) => patterns.some((p) => globMatcher(p)(c.id))).map((c) => c.id);
    expect(expected.length).toBeGreaterThan(1);
    expect((await listJson(...patterns)).map((r) => r.id)).toEqual(expected);
    expect((await listJson(patterns.join(','))).map((r) => r.id)).toEqual(expected);
    const { code, out } = await list(...patterns);
    expect(code).toBe(0);
    expect(out).toHaveLength(expected.length + 3);
    expect(out.at(-2)).toMatch(new RegExp(`^${expected.length} of ${checks.length} checks match rule\\.chat\\.max-tokens, auth\\.\\*;`));
  });

  test('a pattern matching no check: exit 2 naming it, nothing listed', async () => {
    const { code, out, err } = await list('rule', 'no-such-check');
    expect(code).toBe(2);
    expect(out).toEqual([]);
    expect(err.join('\n')).toMatch(/pattern "no-such-check" matches no check/);
    expect(err.join('\n')).not.toMatch(/"rule"/);
  });

  test('an unknown flag is a usage error; --help prints the usage', async () => {
    expect((await list('--bogus')).code).toBe(2);
    const { code, out } = await list('--help');
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/^Usage: svc-conformance list \[PATTERN\.\.\.\] \[--json\]/);
  });
});

describe('svc-conformance list --clients', () => {
  test('each pinned client: its package, the version installed and its checks, as the registry has them', async () => {
    const { code, out } = await list('--clients', '--json');
    expect(code).toBe(0);
    const rows = JSON.parse(out.join('\n')) as ListedClient[];
    const { VERSION: openaiVersion } = await import('openai/version');
    const { VERSION: anthropicVersion } = await import('@anthropic-ai/sdk/version');
    const { version: aiVersion } = createRequire(import.meta.url)('ai/package.json') as { version: string };
    const { version: langchainVersion } = createRequire(import.meta.url)('@langchain/openai/package.json') as { version: string };
    expect(rows.map((r) => [r.name, r.package, r.version, r.default])).toEqual([
      ['openai', 'openai', openaiVersion, true],
      ['anthropic', '@anthropic-ai/sdk', anthropicVersion, true],
      ['ai-sdk', 'ai', aiVersion, false],
      ['langchain', '@langchain/openai', langchainVersion, false],
    ]);
    for (const r of rows) {
      expect(r.checks.length).toBeGreaterThan(0);
      expect(r.checks).toEqual(checks.filter((c) => c.id.startsWith(`client.${r.name}.`)).map((c) => c.id));
    }
    // Every client check belongs to a listed client.
    expect(rows.flatMap((r) => r.checks).sort()).toEqual(checks.filter((c) => c.area === 'client').map((c) => c.id).sort());
  });

  test('as a table: one aligned line per client, then where to read on', async () => {
    const { code, out } = await list('--clients');
    expect(code).toBe(0);
    expect(out[0]).toMatch(/^CLIENT +PACKAGE +VERSION +DEFAULT +CHECKS$/);
    expect(out[1]).toMatch(/^openai +openai +6\.\d+\.\d+ +yes +client\.openai\.chat, /);
    expect(out[3]).toMatch(/^ai-sdk +ai +6\.\d+\.\d+ +no +client\.ai-sdk\.chat, /);
    expect(out.at(-1)).toMatch(/no request of its own/);
  });
});
