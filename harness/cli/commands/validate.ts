import { readFileSync } from 'node:fs';
import { UsageError } from '#harness/core/errors/index.ts';
import { detectKind, judgeCapture, KINDS, type CaptureVerdict, type Kind } from '#harness/capture/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { choiceFlag, EXIT, parseFlags, type Command, type CommandIO } from '../command.ts';

export const validate: Command = {
  name: 'validate',
  summary: 'judge captured bodies (JSON or an SSE stream) against the spec, one line per violation',
  help: `Usage: svc-conformance validate FILE... [--kind KIND] [--model-map A=B,...] [--strict]

Judges each captured response body against the spec and prints every violation
with its JSON path and strength, then one summary line per file:

  FILE[#chunk] PATH LEVEL message (specRef)
  FILE: note: ...
  FILE: KIND, N violation(s): X must, Y should, Z unspecified[, W strict]

PATH is a JSON pointer into the body, (root) for the body itself; #chunk is the
index of the chunk in a stream. Leading blank lines (keep-alives) are skipped.
A body that is not JSON where JSON is due is one must-level violation.
Stream framing (comment lines, \`data: [DONE]\`, an unclosed last event) is noted.

Kinds (told from the content unless --kind is given):
  chat_completion         a chat completion (object "chat.completion")
  chat_completion_chunk   an SSE stream (\`data:\` lines), chunks one JSON per line,
                          or one chunk (object "chat.completion.chunk"); each chunk is judged
  model_list              GET /models (object "list")
  balance                 the balance object (balance_infos)
  fim_completion          a fill-in-the-middle completion (object "text_completion")
  messages_response       a messages-format reply (type "message", a content array)
  error_envelope          an error body (an "error" object; a plain-text error reads as one)

Options:
  --kind KIND            judge every FILE as KIND instead of telling it from the content
  --model-map A=B,...    captured model id and spec model id, in either order (e.g.
                         deepseek-chat=svc-chat): notes which spec model a body came from
  --strict               judge with the strict profile: fields the description does not
                         list are reported at level strict; should and strict lines fail
  -h, --help             show this help

Exit codes: 0 no must-level violation (with --strict: no should or strict one
either); 1 a violation at a failing level; 2 a file cannot be read, or its kind
cannot be told (pass --kind).`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      'validate',
      argv,
      { kind: { type: 'string' }, 'model-map': { type: 'string' }, strict: { type: 'boolean' } },
      true,
    );
    if (positionals.length === 0) throw new UsageError('validate: name the captured files to judge. Run `svc-conformance validate --help`.');
    const forced: Kind | undefined = values.kind === undefined ? undefined : choiceFlag('validate', 'kind', values.kind, KINDS, KINDS[0]);
    const { spec } = loadSpec();
    const modelMap = orientModelMap(spec, values['model-map']);
    const strict = values.strict === true;
    let exit: number = EXIT.ok;
    for (const file of positionals) exit = Math.max(exit, validateFile(spec, file, { forced, modelMap, strict }, io));
    return exit;
  },
};

interface FileOptions {
  forced: Kind | undefined;
  modelMap: Record<string, string>;
  strict: boolean;
}

/** Judges one file and prints its lines; returns its exit code. */
function validateFile(spec: Spec, file: string, options: FileOptions, io: CommandIO): number {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    io.stderr(`validate: cannot read ${file}: ${(err as Error).message}`);
    return EXIT.usage;
  }
  const kind = options.forced ?? detectKind(text);
  if (kind === undefined) {
    io.stderr(
      `validate: ${file}: cannot tell what kind of body this is (no \`data:\` lines, no known \`object\` value or fields). ` +
        `Pass --kind, one of ${KINDS.join(', ')}.`,
    );
    return EXIT.usage;
  }
  const verdict = judgeCapture(spec, text, kind, { modelMap: options.modelMap, profile: options.strict ? 'strict' : 'default' });
  for (const v of verdict.violations) {
    const where = v.item === undefined ? file : `${file}#${v.item}`;
    io.stdout(`${where} ${v.path === '' ? '(root)' : v.path} ${v.level} ${v.message} (${v.specRef})`);
  }
  if (kind === 'chat_completion_chunk') io.stdout(`${file}: note: ${verdict.items} chunk(s) judged`);
  for (const note of verdict.notes) io.stdout(`${file}: note: ${note}`);
  const counts = countLevels(verdict);
  io.stdout(
    `${file}: ${kind}, ${verdict.violations.length} violation(s): ${counts.must} must, ${counts.should} should, ${counts.unspecified} unspecified` +
      (options.strict ? `, ${counts.strict} strict` : ''),
  );
  const fails = counts.must > 0 || (options.strict && counts.should + counts.strict > 0);
  return fails ? EXIT.conformanceFailure : EXIT.ok;
}

function countLevels(verdict: CaptureVerdict): Record<'must' | 'should' | 'unspecified' | 'strict', number> {
  const counts = { must: 0, should: 0, unspecified: 0, strict: 0 };
  for (const v of verdict.violations) counts[v.level] += 1;
  return counts;
}

/**
 * `A=B,...` as captured id -> spec id. Each pair may be written either way round (run's --model-map
 * writes SPEC_ID=THEIR_ID): the side that names a spec model is the spec id; when neither does, A is
 * taken as the captured id.
 */
function orientModelMap(spec: Spec, text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (text === undefined || text === '') return out;
  for (const pair of text.split(',')) {
    const [a, b, extra] = pair.split('=').map((s) => s.trim());
    if (!a || !b || extra !== undefined) {
      throw new UsageError(`validate: --model-map takes CAPTURED_ID=SPEC_ID pairs separated by commas (got ${JSON.stringify(pair)}).`);
    }
    if (!Object.hasOwn(spec.models, b) && Object.hasOwn(spec.models, a)) out[b] = a;
    else out[a] = b;
  }
  return out;
}
