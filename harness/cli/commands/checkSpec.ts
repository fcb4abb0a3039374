import { loadSpec } from '#harness/spec/load.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';

export const checkSpec: Command = {
  name: 'check-spec',
  summary: 'load spec/ and report every problem with file, line, column and path',
  help: `Usage: svc-conformance check-spec [--spec DIR]

Loads the spec (every file named by service.yaml), checks each file against
spec/meta-schema.json and the names between files, and prints a summary.

Options:
  --spec DIR   spec directory (default: the spec/ shipped with the harness)
  -h, --help   show this help

Exit codes: 0 the spec loads; 2 it does not (each problem is printed).`,
  async run(argv, io) {
    const { values } = parseFlags('check-spec', argv, { spec: { type: 'string' } });
    const { spec, dir } = loadSpec(values.spec);
    io.stdout(
      `spec ${spec.revision} (updated ${spec.revision_updated}) loads from ${dir}: ` +
        `${Object.keys(spec.models).length} models, ${Object.keys(spec.objects).length} objects, ` +
        `${Object.keys(spec.endpoints).length} endpoints, ${spec.rules.length} rules.`,
    );
    return EXIT.ok;
  },
};
