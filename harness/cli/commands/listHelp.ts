import type { CommandInfo } from '../command.ts';

/** `list` in the command list and its `--help`: loaded without the command's code. */
export const listInfo: CommandInfo = {
  name: 'list',
  summary: 'list the checks (id, area, severity, basis, features, spec entries), filtered like run --only',
  help: `Usage: svc-conformance list [PATTERN...] [--json] [--spec DIR]
       svc-conformance list --clients [--json]

Prints every check of the catalogue, one aligned line each, then a count:

  ID  AREA  SEVERITY  BASIS  FEATURES  SPEC REFS

BASIS is why the check has its severity: stated, advised, unspecified, or
entailed (\`svc-conformance explain ID\` quotes the phrase it is entailed from).
FEATURES are the features a run may leave out (--without) that the check
judges by its spec entries; features a request asks for (stream, tools,
response_format, thinking) or a route serves are known per request only, when
the check runs, and are not listed. SPEC REFS are the spec entries it enforces.

PATTERNs select checks as \`run --only\` does: part of a check id, or a glob
with * matching the whole id; several (or a comma-separated list) select any
check one of them matches. A pattern that matches no check is an error.

Options:
  --json       print a JSON array instead, one object per check: id, title,
               area, severity, basis, specRefs, models (those it runs on),
               features
  --spec DIR   spec directory (default: the spec/ shipped with the harness)
  --clients    list the client libraries the client checks use instead: name,
               package, the version installed (or how to add it), whether
               run uses it by default, its checks
  -h, --help   show this help

Exit codes: 0 the checks were listed; 2 a pattern that matches no check, a bad
flag, or a spec that does not load.`,
};
