import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CLIENTS } from '#harness/checks/client/index.ts';
import type { CheckResult } from '#harness/core/outcome.ts';
import type { Pinned } from './verdicts.ts';

/**
 * A real server (a model server, a gateway) recorded once by a script under scripts/third-party/
 * and replayed in the tests: npm test needs neither the server nor its toolchain. Each
 * `harness/testing/thirdParty/<name>.pins.ts` default-exports one; `harness/cli/recordedThirdParty.test.ts`
 * replays every one of them and compares each verdict with its pin.
 */
export interface RecordedThirdParty {
  /** Short name, as in the third-party tables of docs/endpoints.md. */
  name: string;
  /** The recording, relative to the repository root (a `record --out` directory). */
  fixtures: string;
  /** Extra flags for the replay (`--model ...`, `--model-map ...`); `--fixtures`, the outputs, `--fast` and `--clients` (every pinned client) are added. */
  args: readonly string[];
  /** The exit code the replay must end with. */
  exitCode: number;
  /**
   * By check id, each with why (FINDINGS.md beside the recording): every must-level verdict, every
   * advisory or should one that fails, and every client verdict (`client.*`), pass, skip or fail.
   * The replay hands the answers to every pinned client (checks/client/index.ts CLIENTS, whatever a
   * run's default --clients), so a client check that appears or changes fails the replay test until
   * pinned here; a client pin's why is never empty: what the client made of the recorded bytes,
   * reproduced by hand (the client fed those bytes, or the client against the running server).
   */
  verdicts: Readonly<Record<string, Pinned>>;
}

const PINS_DIR = fileURLToPath(new URL('./', import.meta.url));

/** Every recorded server with its pins (`<name>.pins.ts` beside this module), by name. */
export async function recordedThirdParties(): Promise<RecordedThirdParty[]> {
  const files = readdirSync(PINS_DIR).filter((f) => f.endsWith('.pins.ts')).sort();
  return Promise.all(files.map(async (f) => ((await import(join(PINS_DIR, f))) as { default: RecordedThirdParty }).default));
}

/** Every pinned client, whatever a run chooses by default: a replay of a recorded server judges them all. */
export const ALL_CLIENTS_FLAGS: readonly string[] = ['--clients', CLIENTS.map((c) => c.name).join(',')];

/** Whether a check id is a client check's (`client.<client>.<capability>`). */
export const isClientCheck = (id: string): boolean => id.startsWith('client.');

/**
 * What a replay's results say of what the pins hold, by check id: every must verdict, every client
 * verdict, every failing one, and every pinned one; compared with `pinnedVerdicts(r)`.
 */
export function verdictsPinnable(r: RecordedThirdParty, results: readonly CheckResult[]): Record<string, string> {
  const seen = results
    .filter((x) => x.severity === 'must' || isClientCheck(x.checkId) || x.verdict === 'fail' || x.verdict === 'error' || r.verdicts[x.checkId] !== undefined)
    .map((x) => [x.checkId, x.verdict] as const);
  return sortedRecord(seen);
}

/** The pinned verdicts, by check id. */
export function pinnedVerdicts(r: RecordedThirdParty): Record<string, string> {
  return sortedRecord(Object.entries(r.verdicts).map(([id, p]) => [id, p.verdict] as const));
}

function sortedRecord(entries: readonly (readonly [string, string])[]): Record<string, string> {
  return Object.fromEntries([...entries].sort(([a], [b]) => a.localeCompare(b)));
}
