import type { CommandInfo } from '../command.ts';

/** `schemas` in the command list and its `--help`: loaded without the command's code. */
export const schemasInfo: CommandInfo = {
  name: 'schemas',
  summary: 'write one JSON Schema (draft 2020-12) per spec object and profile',
  help: `Usage: svc-conformance schemas --out DIR [--profile default|strict|both] [--spec DIR]

Derives a standalone JSON Schema (draft 2020-12) for every object in the spec
(requests, responses, the error envelope), with the objects it refers to
bundled under $defs, and writes them as pretty JSON:

  DIR/<profile>/<object>.schema.json   one file per object and profile
  DIR/index.json                       every file written, with its $id

Schema nodes carry x-strength, x-spec and x-source: how strongly the
description states a constraint, the spec entry and the section it cites.
Files already in DIR are overwritten, never deleted.

Options:
  --out DIR        directory to write into (created if missing); required
  --profile NAME   default (fields the description does not list are allowed),
                   strict (every object closes with additionalProperties false)
                   or both (default: both)
  --spec DIR       spec directory (default: the spec/ shipped with the harness)
  -h, --help       show this help

Exit codes: 0 the schemas were written; 2 a bad flag or a spec that does not
load (each problem is printed).`,
};
