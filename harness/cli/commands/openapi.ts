import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { stringify } from 'yaml';
import { buildOpenApi } from '#harness/derive/openapi/index.ts';
import type { Profile } from '#harness/derive/schemas/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { choiceFlag, EXIT, parseFlags, requireFlag, type Command } from '../command.ts';

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
  name: 'openapi',
  summary: 'write the whole service as one OpenAPI 3.1 document (JSON or YAML)',
  help: `Usage: svc-conformance openapi --out FILE [--profile default|strict] [--spec DIR]

Generates an OpenAPI 3.1.0 document of the whole service from the spec: one
operation per endpoint and base address, every spec object under
components.schemas (with its x-strength, x-spec and x-source annotations),
the error table as responses, and bearer authentication. The servers use
variables ({base_url}, {messages_base_url}) whose defaults do not resolve.

The messages endpoint's path is not stated by the description; the document
puts it at the path the harness uses and says so in its description.

FILE ending in .yaml or .yml is written as YAML, anything else as JSON.
Parent directories are created.

Options:
  --out FILE       file to write; required
  --profile NAME   schema profile of components.schemas: default or strict
                   (default: default)
  --spec DIR       spec directory (default: the spec/ shipped with the harness)
  -h, --help       show this help

Exit codes: 0 the document was written; 2 a bad flag or a spec that does not
load (each problem is printed).`,
  async run(argv, io) {
    const { values } = parseFlags('openapi', argv, {
      out: { type: 'string' },
      profile: { type: 'string' },
      spec: { type: 'string' },
    });
    const out = resolve(requireFlag('openapi', 'out', values.out));
    const profile = choiceFlag('openapi', 'profile', values.profile, PROFILES, 'default');
    const { spec } = loadSpec(values.spec);
    const doc = buildOpenApi(spec, { profile });
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, serialise(doc, out));
    const operations = Object.values(doc.paths).reduce((n, item) => n + (item.get ? 1 : 0) + (item.post ? 1 : 0), 0);
    io.stdout(
      `wrote OpenAPI ${doc.openapi} document (spec ${spec.revision}; ${Object.keys(doc.paths).length} paths, ${operations} operations, ` +
        `${Object.keys(doc.components.schemas).length} schemas) to ${out}`,
    );
    return EXIT.ok;
  },
};
