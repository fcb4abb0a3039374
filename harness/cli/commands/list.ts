import { buildRegistry } from '#harness/checks/index.ts';
import type { Check } from '#harness/checks/define.ts';
import { globMatcher } from '#harness/checks/selection.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { basisText } from '#harness/spec/basis.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { featuresNeeded, modelsOf, NEEDS_NOTE, patternProblems } from '../checkFacts.ts';
import { CLIENTS, DEFAULT_CLIENTS } from '#harness/checks/client/index.ts';
import { EXIT, parseFlags, type Command, type CommandIO } from '../command.ts';
import { listInfo } from './listHelp.ts';

/** One check in `list --json`. */
export interface ListedCheck {
  id: string;
  title: string;
  area: string;
  severity: string;
  /** As report.json writes it: `stated`, `advised`, `unspecified`, `entailed from “…”`. */
  basis: string;
  specRefs: string[];
  /** The models of the spec it runs on. */
  models: string[];
  /** Features a run may leave out that it needs by its spec entries (not those its requests ask for). */
  features: string[];
}

export function listed(spec: Spec, check: Check): ListedCheck {
  return {
    id: check.id,
    title: check.title,
    area: check.area,
    severity: check.severity,
    basis: basisText(check.basis),
    specRefs: [...check.specRefs],
    models: modelsOf(spec, check),
    features: featuresNeeded(spec, check),
  };
}

export const list: Command = {
  ...listInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('list', argv, { json: { type: 'boolean' }, spec: { type: 'string' }, clients: { type: 'boolean' } }, true);
    const { spec } = loadSpec(values.spec);
    const all = buildRegistry(spec).all();
    if (values.clients) return listClients(all, values.json === true, io);
    const ids = all.map((c) => c.id);
    const { patterns, unmatched } = patternProblems(positionals, ids);
    if (unmatched.length > 0) {
      const areas = [...new Set(all.map((c) => c.area))].join(', ');
      throw new UsageError(
        `list: ${unmatched.map((p) => `pattern ${JSON.stringify(p)}`).join(', ')} ${unmatched.length === 1 ? 'matches' : 'match'} no check (of ${all.length}). ` +
          `A pattern is part of a check id, or a glob with *; areas: ${areas}.`,
      );
    }
    const matchers = patterns.map((p) => globMatcher(p));
    const rows = all.filter((c) => matchers.length === 0 || matchers.some((m) => m(c.id))).map((c) => listed(spec, c));
    if (values.json) {
      io.stdout(JSON.stringify(rows, null, 2));
      return EXIT.ok;
    }
    const table = [
      ['ID', 'AREA', 'SEVERITY', 'BASIS', 'FEATURES', 'SPEC REFS'],
      ...rows.map((r) => [r.id, r.area, r.severity, r.basis.startsWith('entailed') ? 'entailed' : r.basis, r.features.join(',') || '-', r.specRefs.join(', ')]),
    ];
    const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
    for (const row of table) io.stdout(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
    const counted = patterns.length === 0 ? `${rows.length} checks` : `${rows.length} of ${all.length} checks match ${patterns.join(', ')}`;
    io.stdout(`${counted}; \`svc-conformance explain ID\` says more about one.`);
    io.stdout(NEEDS_NOTE);
    return EXIT.ok;
  },
};

/** One pinned client in `list --clients --json`. */
export interface ListedClient {
  name: string;
  package: string;
  /** The installed version; absent when it is not installed (`missing` says how to add it). */
  version?: string;
  missing?: string;
  /** Whether `run` hands it answers without --clients naming it (DEFAULT_CLIENTS). */
  default: boolean;
  /** Its checks, `client.<name>.*`. */
  checks: string[];
}

/** `list --clients`: each client the client checks hand answers to, the version installed, and its checks. */
async function listClients(all: readonly Check[], json: boolean, io: CommandIO): Promise<number> {
  const rows: ListedClient[] = await Promise.all(
    CLIENTS.map(async (c) => {
      const found = await c.load();
      return { name: c.name, package: c.package, default: DEFAULT_CLIENTS.includes(c.name), ...('missing' in found ? { missing: found.missing } : { version: found.version }), checks: all.filter((k) => k.id.startsWith(`client.${c.name}.`)).map((k) => k.id) };
    }),
  );
  if (json) {
    io.stdout(JSON.stringify(rows, null, 2));
    return EXIT.ok;
  }
  const table = [['CLIENT', 'PACKAGE', 'VERSION', 'DEFAULT', 'CHECKS'], ...rows.map((r) => [r.name, r.package, r.version ?? 'not installed', r.default ? 'yes' : 'no', r.checks.join(', ')])];
  const widths = table[0]!.map((_, i) => Math.max(...table.map((row) => row[i]!.length)));
  for (const row of table) io.stdout(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  '));
  for (const r of rows) if (r.missing !== undefined) io.stdout(`${r.name}: ${r.missing}`);
  io.stdout('Each client is handed the answers the run already has (no request of its own); its checks are advisory (--clients-gate makes them gate). `run --clients a,b` chooses them (default: those marked yes; `record` hands answers to all). docs/checks.md, "Client verdicts".');
  return EXIT.ok;
}
