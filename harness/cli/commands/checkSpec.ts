import { loadSpec } from '#harness/spec/load.ts';
import { EXIT, parseFlags, type Command } from '../command.ts';
import { checkSpecInfo } from './checkSpecHelp.ts';

export const checkSpec: Command = {
  ...checkSpecInfo,
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
