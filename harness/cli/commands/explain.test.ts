import { describe, expect, test } from 'vitest';
import { buildRegistry } from '#harness/checks/index.ts';
import { selector } from '#harness/checks/selection.ts';
import { FAULTS } from '#harness/emulator/faults/catalogue.ts';
import { basisText } from '#harness/spec/basis.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { captureIO } from '#harness/testing/captureIO.ts';
import { main } from '../main.ts';

const { spec } = loadSpec();
const checks = buildRegistry(spec).all();
const ids = checks.map((c) => c.id);

async function explain(...args: string[]) {
  const io = captureIO();
  const code = await main(['explain', ...args], io);
  return { code, text: io.out.join('\n'), err: io.err.join('\n') };
}

/** The flags of a `run ... --fault F <flags>` line the output names, as a selection. */
function selectionOf(line: string): { only: string[]; skip: string[] } {
  const only = /--only (\S+)/.exec(line)?.[1];
  const skip = /--skip (\S+)/.exec(line)?.[1];
  return { only: only ? [only] : [], skip: skip ? skip.split(',') : [] };
}

describe('svc-conformance explain', () => {
  test.each(checks.map((c) => [c.id, c] as const))('%s: exit 0, its severity, basis, models and each spec entry found in the spec', async (id, check) => {
    const { code, text, err } = await explain(id);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(text.startsWith(`${id}: ${check.title}\n`)).toBe(true);
    expect(text).toMatch(new RegExp(`^severity  ${check.severity}$`, 'm'));
    expect(text).toContain(`basis     ${basisText(check.basis)}`);
    for (const ref of check.specRefs) expect(text).toMatch(new RegExp(`^  ${ref.replace(/[.*]/g, '\\$&')}  \\(spec/`, 'm'));
    expect(text).not.toContain('not in the spec');
    // The command it prints runs this check and no other.
    // (A gateway check's run names the gateway and the upstream port first.)
    const only = selectionOf(text.split('\n').find((l) => /^ {2}svc-conformance run (--base-url GATEWAY --upstream-port PORT )?--only/.test(l))!);
    expect(ids.filter(selector(only))).toEqual([id]);
  });

  test('a rule: its statement and source from spec/rules.yaml, and the faults breaking it with the command to see it fail', async () => {
    const rule = spec.rules.find((r) => r.id === 'chat.messages.non-empty')!;
    const { code, text } = await explain('rule.chat.messages.non-empty');
    expect(code).toBe(0);
    expect(text).toContain(`statement  ${rule.statement}`);
    expect(text).toContain(`source     ${rule.source}`);
    expect(text).toContain('empty-messages-accepted: an empty `messages` array is answered 200');
    expect(text).toContain('svc-conformance run --fault empty-messages-accepted --only rule.chat.messages.non-empty');
  });

  test('an entailed basis quotes the phrase it is entailed from', async () => {
    const check = checks.find((c) => typeof c.basis !== 'string')!;
    expect(check).toBeDefined();
    const { text } = await explain(check.id);
    expect(text).toContain(`entailed from “${(check.basis as { entailed: string }).entailed}”`);
  });

  test('every fault of the catalogue is named by the checks covering it (the fault walk rule), and only by them', async () => {
    const named = new Map<string, string[]>(FAULTS.map((f) => [f.id, []]));
    for (const id of ids) {
      const { text } = await explain(id);
      for (const m of text.matchAll(/svc-conformance run --fault (\S+) /g)) named.get(m[1]!)!.push(id);
    }
    for (const f of FAULTS) {
      const covering = checks.filter((c) => c.upstream !== true && c.specRefs.some((ref) => f.breaks === ref || f.breaks.startsWith(`${ref}.`) || ref.startsWith(`${f.breaks}.`))).map((c) => c.id);
      expect(covering.length, f.id).toBeGreaterThan(0);
      expect(named.get(f.id), f.id).toEqual(covering);
    }
  });

  test('a check whose id is part of others: the command skips those, so it runs this one alone', async () => {
    const id = ids.find((a) => ids.some((b) => b !== a && b.includes(a)));
    expect(id, 'no id is part of another: drop this test').toBeDefined();
    const { text } = await explain(id!);
    expect(text).toMatch(new RegExp(`--only ${id!.replace(/[.*]/g, '\\$&')} --skip `));
  });

  test('an unknown check: exit 2 with the closest ids', async () => {
    const near = ids.find((id) => id.startsWith('rule.chat.max-tokens.'))!;
    const { code, text, err } = await explain('rule.chat.max-tokens');
    expect(code).toBe(2);
    expect(text).toBe('');
    expect(err).toMatch(/"rule\.chat\.max-tokens" is not a check id; closest: /);
    expect(err).toContain(near);

    const typo = await explain('usage.total.equals-sum');
    expect(typo.code).toBe(2);
    expect(typo.err).toMatch(/closest: usage\.total\./);

    const nothing = await explain('zzz');
    expect(nothing.code).toBe(2);
    expect(nothing.err).toMatch(/"zzz" is not a check id\. Run `svc-conformance list`/);
  });

  test('no check, or two: a usage error; --help prints the usage', async () => {
    expect((await explain()).code).toBe(2);
    expect((await explain(ids[0]!, ids[1]!)).code).toBe(2);
    const help = await explain('--help');
    expect(help.code).toBe(0);
    expect(help.text).toMatch(/^Usage: svc-conformance explain CHECK/);
  });
});
