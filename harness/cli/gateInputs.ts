import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { buildRegistry } from '#harness/checks/index.ts';
import { readRecords, type KnownEntry, type RunRecord } from '#harness/results/index.ts';
import type { Spec } from '#harness/spec/model.ts';
import { checkKnownEntries, KNOWN_FILE, readKnownFile } from './knownFile.ts';
import type { CommandIO } from './command.ts';

export interface GateInputs {
  /** --baseline FILE: its records, and the path as the user gave it. */
  baseline?: { records: RunRecord[]; source: string };
  /** --known FILE (or ./svc-conformance.known.yaml): its entries, checked against the catalogue. */
  known?: { source: string; entries: KnownEntry[]; strict: boolean };
}

/**
 * What the gate is given besides the run's own results, read and checked before anything is spent:
 * a baseline run, and the known failures (`--known FILE`, else svc-conformance.known.yaml in the
 * working directory, said when found). An entry naming no check is an input error (exit 2).
 */
export async function gateInputsOf(command: string, values: { baseline?: string; known?: string; 'strict-known'?: boolean }, spec: Spec, io: CommandIO): Promise<GateInputs> {
  const baseline = values.baseline !== undefined ? { records: await readRecords(resolve(values.baseline)), source: values.baseline } : undefined;
  let source = values.known;
  if (source === undefined && existsSync(KNOWN_FILE)) {
    source = KNOWN_FILE;
    io.stderr(`svc-conformance: reading known failures from ./${KNOWN_FILE} (--known FILE names another)`);
  }
  const entries = source === undefined ? undefined : readKnownFile(source, command);
  if (entries !== undefined) checkKnownEntries(entries, buildRegistry(spec).all(), Object.keys(spec.models), command);
  return {
    ...(baseline ? { baseline } : {}),
    ...(entries !== undefined && source !== undefined ? { known: { source, entries, strict: values['strict-known'] === true } } : {}),
  };
}
