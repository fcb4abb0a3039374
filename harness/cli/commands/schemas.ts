import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { UsageError } from '#harness/core/errors/index.ts';
import { deriveObjectSchema, type Profile } from '#harness/derive/schemas/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import { choiceFlag, EXIT, parseFlags, requireFlag, type Command } from '../command.ts';
import { outputDir } from '../outputs.ts';
import { schemasInfo } from './schemasHelp.ts';

const PROFILES = ['default', 'strict'] as const satisfies readonly Profile[];
const PROFILE_CHOICES = [...PROFILES, 'both'] as const;
/** Object names become file names: nothing that could leave the directory. */
const FILE_SAFE = /^[A-Za-z0-9._-]+$/;

export const INDEX_FILE = 'index.json';

/** One entry of DIR/index.json. */
export interface SchemaIndexEntry {
  object: string;
  profile: Profile;
  /** Path relative to the output directory, with forward slashes. */
  file: string;
  $id: string;
  title: string;
  direction: 'request' | 'response';
}

export interface SchemaIndex {
  revision: string;
  revision_updated: string;
  source_document: string;
  profiles: Profile[];
  schemas: SchemaIndexEntry[];
}

export const schemas: Command = {
  ...schemasInfo,
  async run(argv, io) {
    const { values } = parseFlags('schemas', argv, {
      out: { type: 'string' },
      profile: { type: 'string' },
      spec: { type: 'string' },
    });
    const given = requireFlag('schemas', 'out', values.out);
    const choice = choiceFlag('schemas', 'profile', values.profile, PROFILE_CHOICES, 'both');
    const profiles: Profile[] = choice === 'both' ? [...PROFILES] : [choice];
    const { spec } = loadSpec(values.spec);
    const out = outputDir('schemas', 'out', given);

    const entries: SchemaIndexEntry[] = [];
    for (const profile of profiles) {
      mkdirSync(join(out, profile), { recursive: true });
      for (const [name, object] of Object.entries(spec.objects)) {
        if (!FILE_SAFE.test(name)) throw new UsageError(`schemas: object \`${name}\` cannot be a file name (${FILE_SAFE}).`);
        const schema = deriveObjectSchema(spec, name, { profile });
        const file = `${profile}/${name}.schema.json`;
        writeFileSync(join(out, profile, `${name}.schema.json`), `${JSON.stringify(schema, null, 2)}\n`);
        entries.push({ object: name, profile, file, $id: String(schema.$id), title: object.title, direction: object.direction });
      }
    }
    const index: SchemaIndex = {
      revision: spec.revision,
      revision_updated: spec.revision_updated,
      source_document: spec.source_document,
      profiles,
      schemas: entries,
    };
    writeFileSync(join(out, INDEX_FILE), `${JSON.stringify(index, null, 2)}\n`);

    const objects = Object.keys(spec.objects).length;
    io.stdout(
      `wrote ${entries.length} schemas (${objects} objects x ${profiles.length} profile${profiles.length === 1 ? '' : 's'}: ${profiles.join(', ')}) ` +
        `to ${out}, listed in ${join(out, INDEX_FILE)}.`,
    );
    return EXIT.ok;
  },
};
