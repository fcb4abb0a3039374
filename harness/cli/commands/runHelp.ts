import type { CommandInfo } from '../command.ts';
import { ADAPTIVE } from '#harness/transport/adaptiveLimit.ts';
import { CLIENT_NAMES, DEFAULT_CLIENTS } from '#harness/checks/client/names.ts';

/** The spec's feature names, for --help; a test keeps this list and the spec in step. */
export const FEATURE_LIST = `chat, models, balance, fim, prefix_completion, messages,
${' '.repeat(25)}streaming, tools, json_output, thinking, caching`;

/** `run --help`. */
export const RUN_HELP = `Usage: svc-conformance run [--base-url URL]... [--config FILE] [--api-key-env VAR] [--messages-base-url URL]
                          [--empty-balance-key-env VAR] [--model ID]... [--model-map SPEC_ID=THEIR_ID,...] [--only PATTERN,...]... [--skip PATTERN,...]...
                          [--strict] [--now ISO] [--concurrency N] [--timeout-ms N] [--deadline-ms N] [--runs N] [--seed N]
                          [--repeat N] [--allow-flaky] [--shard I/N] [--report-dir DIR] [--json FILE] [--baseline FILE] [--fault NAME]...
                          [--header 'NAME: VALUE']... [--header-env NAME=VAR]... [--without FEATURE,...] [--clients NAME,...] [--clients-gate]
                          [--spec DIR] [--quiet]

Sends requests, judges every answer against spec/, and writes, for each base URL
and model, report.json, report.md, junit.xml and report.html under
DIR/<host>/<model>/ (DIR/emulator/<model>/ for the embedded emulator,
DIR/replay/<model>/ for a recording), plus DIR/summary.md and DIR/summary.json
across them. A previous run's reports in DIR are removed first.

Without --base-url the embedded emulator is started in-process on a loopback
port: the main job (npm start), needing no key and no network.

Options:
  --base-url URL         a live endpoint (repeatable)
  --config FILE          targets and run options from a file: base_url,
                         api_key_env, messages_base_url, empty_balance_key_env,
                         model_map, headers, header_env, without per target;
                         models, only, skip, strict, concurrency, timeout_ms,
                         without, clients, clients_gate for the run. Default: ./svc-conformance.yaml
                         (or .yml) when there is one, said on stderr. Flags
                         win over the file; --base-url, --fixtures or --fault
                         replace its targets (docs/config.md)
  --api-key-env VAR      environment variable holding the key (default SVC_API_KEY)
  --empty-balance-key-env VAR
                         a second key whose balance is empty (checks the 402 rule)
  --messages-base-url U  the messages-format base (default {base_url}/anthropic)
  --model ID             a model of the spec to cover (repeatable; default every
                         current model, plus the legacy aliases for lifecycle)
  --model-map A=B,...    send the spec's model A as the provider's id B
  --header 'NAME: VALUE' send this header with every request (repeatable), for
                         gateways that route on their own headers
  --header-env NAME=VAR  the same, its value read from the environment variable
                         VAR and kept secret: redacted wherever it could be
                         written; reproducers read it back as $VAR
  --only PATTERN,...     checks whose id contains a PATTERN (or matches a * glob);
                         repeatable. A pattern that matches no check is an
                         error (exit 2): a run that selects nothing is no pass
  --skip PATTERN,...     leave these checks out (repeatable)
  --without F,...        features the endpoint does not offer, from the spec:
                         ${FEATURE_LIST}
                         (a unique start is enough: prefix). Their checks are
                         skipped, out of scope; the exit code depends on the rest
  --strict               also fail on should-checks, and report unlisted fields
  --clients NAME,...     the client libraries each answer is also handed to
                         (client.* checks, no extra request): ${CLIENT_NAMES.join(', ')},
                         or none; default ${DEFAULT_CLIENTS.join(',')}. \`list --clients\` shows
                         their pinned versions
  --clients-gate         a client check that fails fails the run (they are
                         advisory otherwise: the description names no client)
  --now ISO              reference time for lifecycle checks (and the embedded
                         emulator's clock); default: the server's Date header
  --concurrency N        requests in flight, fixed at N; default: adaptive, from
                         ${ADAPTIVE.initial} up to ${ADAPTIVE.max}, halved on 429 or 503 (the reports say
                         what it reached)
  --timeout-ms N         how long to wait for response headers, and between two
                         pieces of a body, before the check ends in error
                         (default 60000; connecting: at most 10000)
  --deadline-ms N        the most one answer's body may take, headers to last
                         byte (default 120000; a request asking for few tokens
                         gets less: 30 s + 0.1 s per max_tokens). A route that
                         got no answer in time is declared silent: nothing more
                         is sent there. Only silence is: any HTTP answer, 5xx
                         too, is the check's evidence
  --runs N, --seed N     property-test runs and seed (default 10, 1)
  --repeat N             run the whole plan N times (default 1), each time
                         afresh (no answer shared between runs), and merge
                         each check's verdicts: agreeing runs keep theirs;
                         a pass and a fail make it flaky; reports add its
                         runs, passes, fails, pass@k and pass^k. N x the cost
  --allow-flaky          a flaky check does not fail the run (it is still
                         reported flaky)
  --shard I/N            run share I of N of the checks (merge with \`merge\`)
  --report-dir DIR       where reports go (default reports/)
  --json FILE            also write the whole machine report (every cell) to FILE
  --baseline FILE        exit 1 only on regressions: checks that fail the run now
                         and were judged in FILE (a report.json or a --json
                         bundle) without failing there; FILE must hold every
                         cell (target and model) of this run
  --fault NAME           embedded emulator only: break this rule (see
                         \`svc-conformance emulate --list-faults\`)
  --fixtures DIR         replay a recording (\`record --out DIR\`) instead of a
                         live target: loopback only, clock from the recording
  --fast                 with --fixtures: stream events without their spacing
  --spec DIR             spec directory (default: the spec/ shipped with the harness)
  --quiet                no progress lines
  -h, --help             show this help

Outcome and exit code (every report's headline says the same):
  0   PASS            must-checks were judged and every one held (should-checks
                      too, with --strict)
  1   FAIL            a check failed, was flaky over --repeat N (unless
                      --allow-flaky), or could not be judged (error: refused,
                      reset, timed out, unreadable answer); or the key was refused
  1   NOTHING JUDGED  no must-check was judged (all skipped, blocked, not
                      recorded): nothing was shown to hold
  2   a usage or configuration error: nothing was run
  130 INTERRUPTED     SIGINT (143: SIGTERM); the partial reports are written`;


/** `run` in the command list and its `--help`: loaded without the command's code. */
export const runInfo: CommandInfo = {
  name: 'run',
  summary: 'run the conformance checks against the embedded emulator or a base URL, and write reports',
  help: RUN_HELP,
};
