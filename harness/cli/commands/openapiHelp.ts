import type { CommandInfo } from '../command.ts';

/** `openapi` in the command list and its `--help`: loaded without the command's code. */
export const openapiInfo: CommandInfo = {
  name: 'openapi',
  summary: 'write the whole service as one OpenAPI 3.1 document (JSON or YAML)',
  help: `Usage: svc-conformance openapi --out FILE [--profile default|strict] [--spec DIR]

Generates an OpenAPI 3.1.0 document of the whole service from the spec: one
operation per endpoint and base address, every spec object under
components.schemas (with its x-strength, x-spec and x-source annotations),
the error table as responses, and bearer authentication. The servers use
variables ({base_url}, {messages_base_url}) whose defaults do not resolve.

The messages endpoint's path is not stated by the description; the document
puts it at the path the harness uses and says so in its description.

FILE ending in .yaml or .yml is written as YAML, anything else as JSON.
Parent directories are created.

Options:
  --out FILE       file to write; required
  --profile NAME   schema profile of components.schemas: default or strict
                   (default: default)
  --spec DIR       spec directory (default: the spec/ shipped with the harness)
  -h, --help       show this help

Exit codes: 0 the document was written; 2 a bad flag or a spec that does not
load (each problem is printed).`,
};
