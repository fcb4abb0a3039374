import { writeFileSync } from 'node:fs';
import { stringify } from 'yaml';
import { buildOpenApi } from '#harness/derive/openapi/index.ts';
import type { Profile } from '#harness/derive/schemas/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { choiceFlag, EXIT, parseFlags, requireFlag, type Command } from '../command.ts';
import { outputFile } from '../outputs.ts';
import { openapiInfo } from './openapiHelp.ts';

const PROFILES: readonly Profile[] = ['default', 'strict'];

/** JSON, or YAML when the file name says so. */
export function serialise(doc: unknown, file: string): string {
  if (/\.ya?ml$/i.test(file)) {
    // No anchors/aliases: a reader should see every node where it is used.
    return stringify(doc, { aliasDuplicateObjects: false, lineWidth: 0 });
  }
  return `${JSON.stringify(doc, null, 2)}\n`;
}

export const openapi: Command = {
  ...openapiInfo,
  async run(argv, io) {
    const { values } = parseFlags('openapi', argv, {
      out: { type: 'string' },
      profile: { type: 'string' },
      spec: { type: 'string' },
    });
    const given = requireFlag('openapi', 'out', values.out);
    const profile = choiceFlag('openapi', 'profile', values.profile, PROFILES, 'default');
    const { spec } = loadSpec(values.spec);
    const out = outputFile('openapi', 'out', given);
    const doc = buildOpenApi(spec, { profile });
    writeFileSync(out, serialise(doc, out));
    const operations = Object.values(doc.paths).reduce((n, item) => n + (item.get ? 1 : 0) + (item.post ? 1 : 0), 0);
    io.stdout(
      `wrote OpenAPI ${doc.openapi} document (spec ${spec.revision}; ${Object.keys(doc.paths).length} paths, ${operations} operations, ` +
        `${Object.keys(doc.components.schemas).length} schemas) to ${out}`,
    );
    return EXIT.ok;
  },
};
