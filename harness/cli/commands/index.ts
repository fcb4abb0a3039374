import type { Command, CommandEntry, CommandInfo } from '../command.ts';
import { badgeInfo } from './badgeHelp.ts';
import { checkSpecInfo } from './checkSpecHelp.ts';
import { diffInfo } from './diffHelp.ts';
import { initKnownInfo } from './initKnownHelp.ts';
import { emulateInfo } from './emulateHelp.ts';
import { explainInfo } from './explainHelp.ts';
import { listInfo } from './listHelp.ts';
import { mergeInfo } from './mergeHelp.ts';
import { openapiInfo } from './openapiHelp.ts';
import { recordInfo } from './recordHelp.ts';
import { runInfo } from './runHelp.ts';
import { schemasInfo } from './schemasHelp.ts';
import { trendInfo } from './trendHelp.ts';
import { validateInfo } from './validateHelp.ts';

const entry = (info: CommandInfo, load: () => Promise<Command>): CommandEntry => ({ ...info, load });

/**
 * Every command, in the order `--help` lists them. A command's module (and the spec loader, ajv,
 * vitest... behind it) is imported only when that command runs: `--help` stays fast.
 */
export const COMMANDS: readonly CommandEntry[] = [
  entry(runInfo, async () => (await import('./run.ts')).run),
  entry(recordInfo, async () => (await import('./record.ts')).record),
  entry(mergeInfo, async () => (await import('./merge.ts')).merge),
  entry(validateInfo, async () => (await import('./validate.ts')).validate),
  entry(diffInfo, async () => (await import('./diff.ts')).diff),
  entry(initKnownInfo, async () => (await import('./initKnown.ts')).initKnown),
  entry(badgeInfo, async () => (await import('./badge.ts')).badge),
  entry(trendInfo, async () => (await import('./trend.ts')).trend),
  entry(emulateInfo, async () => (await import('./emulate.ts')).emulate),
  entry(listInfo, async () => (await import('./list.ts')).list),
  entry(explainInfo, async () => (await import('./explain.ts')).explain),
  entry(checkSpecInfo, async () => (await import('./checkSpec.ts')).checkSpec),
  entry(schemasInfo, async () => (await import('./schemas.ts')).schemas),
  entry(openapiInfo, async () => (await import('./openapi.ts')).openapi),
];
