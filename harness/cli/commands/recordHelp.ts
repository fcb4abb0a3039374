import type { CommandInfo } from '../command.ts';

/** `record` in the command list and its `--help`: loaded without the command's code. */
export const recordInfo: CommandInfo = {
  name: 'record',
  summary: 'run the checks like `run` and store every exchange as a fixture (replay with `run --fixtures DIR`)',
  help: `Usage: svc-conformance record --out DIR [--base-url URL] [--api-key-env VAR] [any run flag]

Runs the checks exactly as \`run\` does (against the embedded emulator, or one
--base-url) and writes the recording to DIR:

  DIR/manifest.json        the run's clock (reference time), spec revision,
                           harness version and recorded base URL
  DIR/exchanges/NNNN-<method>-<path>-<hash>.json
                           one exchange per file: request (method, path,
                           headers without credentials, body) and response
                           (status, headers, body; for SSE every event with
                           its arrival offset in ms)

Keys are never written: the transport redacts them before anything is stored.
The format is fixtures/fixture.schema.json. DIR/exchanges is replaced whole.
Reports are written as by \`run\`.

Replay: svc-conformance run --fixtures DIR [--fast]

Options: --out DIR (required), and every option of \`run\` but --fixtures,
--config, --repeat and more than one --base-url (see \`run --help\`); --header and
--header-env included (an env-sourced value is recorded as [REDACTED]). A
./svc-conformance.yaml is not read by record (it says so): give the target and
options on the command line.

Exit codes: as \`run\`: 0 every applicable must-check passed; 1 a check failed;
2 a usage or configuration error.`,
};
