import type { Command } from '../command.ts';
import { runOrRecord } from './run.ts';
import { recordInfo } from './recordHelp.ts';

export const record: Command = {
  ...recordInfo,
  run: (argv, io) => runOrRecord('record', argv, io),
};
