import { buildRegistry } from '#harness/checks/index.ts';
import { UsageError } from '#harness/core/errors/index.ts';
import { FAULTS } from '#harness/emulator/faults/catalogue.ts';
import { basisText } from '#harness/spec/basis.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { closestIds, entryLines, faultsCovering, featuresNeeded, modelsOf, NEEDS_NOTE, onlyThisCheck, resolveSpecRef } from '../checkFacts.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { explainInfo } from './explainHelp.ts';

/** How the entry a fault breaks stands to the check's entries, after `breaks <entry>`. */
const RELATION = { 'same entry': '', inside: ', inside an entry it enforces', contains: ', which holds an entry it enforces' } as const;

export const explain: Command = {
  ...explainInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags('explain', argv, { spec: { type: 'string' } }, true);
    if (positionals.length !== 1) throw new UsageError(`explain: give one check id (got ${positionals.length}). Run \`svc-conformance list\` for the ids.`);
    const wanted = positionals[0]!;
    const loaded = loadSpec(values.spec);
    const { spec } = loaded;
    const all = buildRegistry(spec).all();
    const ids = all.map((c) => c.id);
    const check = all.find((c) => c.id === wanted);
    if (!check) {
      const close = closestIds(wanted, ids);
      throw new UsageError(
        `explain: ${JSON.stringify(wanted)} is not a check id` +
          (close.length > 0 ? `; closest: ${close.join(', ')}.` : '.') +
          ` Run \`svc-conformance list\` for all ${ids.length}.`,
      );
    }

    const out: string[] = [];
    const field = (name: string, value: string) => out.push(`${name.padEnd(10)}${value}`);
    out.push(`${check.id}: ${check.title}`, '');
    field('area', check.area);
    field('severity', check.severity);
    field('basis', basisText(check.basis));
    const models = modelsOf(spec, check);
    field('models', models.length > 0 ? `${models.join(', ')}${models.length > 1 ? ' (runs once on each)' : ''}` : 'none of the spec: it never runs');
    const features = featuresNeeded(spec, check);
    field('features', features.length > 0 ? `${features.join(', ')} (skipped, out of scope, by --without ${features.join(',')})` : 'none by its spec entries');

    out.push('', `Spec entries it enforces (${check.specRefs.length}):`);
    for (const ref of check.specRefs) {
      const resolved = resolveSpecRef(spec, ref);
      const file = loaded.origins[ref.split('.')[0]!];
      out.push(`  ${ref}${file ? `  (spec/${file})` : ''}`);
      if (!resolved.found) {
        out.push(`    not in the spec: \`${resolved.missing}\` names nothing there`);
        continue;
      }
      const lines = entryLines(resolved.node);
      const width = Math.max(...lines.map(([k]) => k.length));
      for (const [k, v] of lines) out.push(`    ${k.padEnd(width)}  ${v}`);
    }

    const only = onlyThisCheck(check.id, ids);
    // A gateway check is judged against the harness as a gateway's upstream, never the emulator alone.
    const faults = check.upstream === true ? [] : faultsCovering(check, FAULTS);
    out.push('');
    if (check.upstream === true) out.push('Emulator faults: none applies; it judges a gateway against the harness as its upstream, and a gateway of one behaviour between them shows it failing (harness/cli/gateway.test.ts).');
    else if (faults.length === 0) out.push('Emulator faults: none breaks an entry it enforces.');
    else {
      out.push(`Emulator faults that break an entry it enforces (${faults.length}); under each, a run shows whether it fails:`);
      for (const { fault, relation } of faults) {
        out.push(`  ${fault.id}: ${fault.summary}`);
        out.push(`    breaks ${fault.breaks}${RELATION[relation]}${fault.premise ? '; a premise, not a rule: the check is inconclusive there, never failing' : ''}`);
        out.push(`    svc-conformance run --fault ${fault.id} ${only}`);
      }
      if (faults.some((f) => f.fault.area === 'lifecycle')) out.push('  Lifecycle faults show on one side of a retirement instant (spec/lifecycle.yaml): add --now ISO before or after it.');
      if (faults.some((f) => f.fault.id === 'extra-fields')) out.push('  extra-fields shows under the strict profile only: add --strict.');
    }

    out.push(
      '',
      'What it sends is not read off the check: it builds its requests when it runs.',
      check.upstream === true
        ? `  svc-conformance run --base-url GATEWAY --upstream-port PORT ${only}   judges the gateway at GATEWAY, configured to call 127.0.0.1:PORT (docs/endpoints.md, "Judging a gateway");`
        : `  svc-conformance run ${only}   judges it against the embedded emulator (--base-url URL for another);`,
      `  a failure in reports/${check.upstream === true ? '<gateway host>' : 'emulator'}/<model>/report.md shows the exchange and a curl reproducer;`,
      `  svc-conformance record --out DIR ${check.upstream === true ? '--base-url GATEWAY --upstream-port PORT ' : ''}${only}   stores every exchange it makes${check.upstream === true ? ', and the upstream\'s side (upstream.json)' : ''}.`,
      '',
      NEEDS_NOTE,
    );
    for (const line of out) io.stdout(line);
    return EXIT.ok;
  },
};
