import type { CommandInfo } from '../command.ts';

/** `emulate` in the command list and its `--help`: loaded without the command's code. */
export const emulateInfo: CommandInfo = {
  name: 'emulate',
  summary: 'serve the embedded emulator of the service (optionally with faults) until stopped',
  help: `Usage: svc-conformance emulate [--port N] [--host H] [--api-key KEY]... [--now ISO]
                              [--fault NAME]... [--seed N] [--concurrency N]
                              [--capacity N [--queue-bound N]]
                              [--maintenance] [--stream-interval MS | --tokens-per-second N]
                              [--latency-ms MS [--jitter-ms MS]] [--spec DIR]
       svc-conformance emulate --list-faults

Serves the service as spec/ describes it, on node:http: every endpoint on every
base ({base}, {base}/v1, {base}/beta, and the messages format under
{base}/anthropic). Prints its base URL on the first line of stdout and, when no
--api-key is given, a generated key on the second. Serves until SIGINT or
SIGTERM, then closes cleanly.

Options:
  --port N             port to listen on (default 0: an ephemeral port)
  --host H             address to bind (default 127.0.0.1, loopback)
  --api-key KEY        a key to accept (repeatable; default: one generated key)
  --now ISO            start the emulator's clock at this instant; it then runs
                       at real speed (lifecycle on both sides of a retirement)
  --fault NAME         break exactly this rule (repeatable); see --list-faults
  --list-faults        print the fault catalogue, one line each, and exit
  --seed N             seed of the deterministic text generator (default 0)
  --concurrency N      requests one key may have in flight before 429 (default 8)
  --capacity N         requests the service serves at once across every key
                       (default: no such limit); beyond it requests wait in a
                       FIFO queue, and each stream's events come further apart
                       as the load rises: max(interval, 1 ms) x (1 + in flight / N)
  --queue-bound N      requests that may wait for --capacity (default: N of
                       --capacity; 0: none); once full, 429 with Retry-After
  --maintenance        answer every request 503 (maintenance)
  --stream-interval MS pause between two stream events (default 0)
  --tokens-per-second N  the same, as a rate: one stream event every 1000/N ms
  --latency-ms MS      wait this long before every answer's headers, as a far
                       endpoint does (default 0); --jitter-ms MS adds up to MS
                       more per request, from the seeded generator
  --spec DIR           spec directory (default: the spec/ shipped with the harness)
  -h, --help           show this help

Exit codes: 0 stopped by a signal; 2 a bad flag or a spec that does not load.`,
};
