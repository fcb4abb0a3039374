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
  /** Extra flags for the replay (`--model ...`, `--model-map ...`); `--fixtures`, the outputs and `--fast` are added. */
  args: readonly string[];
  /** The exit code the replay must end with. */
  exitCode: number;
  /** Every must-level verdict, and every advisory or should one that fails, by check id, each with why (FINDINGS.md beside the recording). */
  verdicts: Readonly<Record<string, Pinned>>;
}
