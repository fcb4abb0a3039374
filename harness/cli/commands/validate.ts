import { readFileSync } from 'node:fs';
import { UsageError } from '#harness/core/errors/index.ts';
import { detectKind, judgeCapture, KINDS, type CaptureVerdict, type Kind } from '#harness/capture/index.ts';
import { loadSpec } from '#harness/spec/load.ts';
import type { Spec } from '#harness/spec/model.ts';
import { choiceFlag, EXIT, parseFlags, type Command, type CommandIO } from '../command.ts';
import { modelMapPairs } from '../modelMap.ts';
import { validateInfo } from './validateHelp.ts';

export const validate: Command = {
  ...validateInfo,
  async run(argv, io) {
    const { values, positionals } = parseFlags(
      'validate',
      argv,
      { kind: { type: 'string' }, 'model-map': { type: 'string', multiple: true }, strict: { type: 'boolean' } },
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
 * `A=B` pairs (cli/modelMap.ts) as captured id -> spec id. Each pair may be written either way round
 * (run's --model-map writes SPEC_ID=THEIR_ID): the side that names a spec model is the spec id; when
 * neither does, A is taken as the captured id.
 */
function orientModelMap(spec: Spec, values: readonly string[] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { text, left, right } of modelMapPairs('validate', values, 'CAPTURED_ID=SPEC_ID pairs')) {
    const isSpec = (id: string) => Object.hasOwn(spec.models, id);
    // A captured id may hold an `=` of its own: in CAPTURED=SPEC_ID the spec id follows the last one.
    const last = text.lastIndexOf('=');
    const [head, tail] = [text.slice(0, last).trim(), text.slice(last + 1).trim()];
    if (isSpec(left) && !isSpec(right)) out[right] = left;
    else if (isSpec(tail)) out[head] = tail;
    else out[left] = right;
  }
  return out;
}
