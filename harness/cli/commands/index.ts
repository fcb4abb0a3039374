import type { Command } from '../command.ts';
import { checkSpec } from './checkSpec.ts';
import { diff } from './diff.ts';
import { emulate } from './emulate.ts';
import { merge } from './merge.ts';
import { openapi } from './openapi.ts';
import { record } from './record.ts';
import { run } from './run.ts';
import { schemas } from './schemas.ts';
import { validate } from './validate.ts';

/** Every command, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [run, record, merge, validate, diff, emulate, checkSpec, schemas, openapi];
