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
