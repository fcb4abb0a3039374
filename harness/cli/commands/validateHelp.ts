import type { CommandInfo } from '../command.ts';

/** `validate` in the command list and its `--help`: loaded without the command's code. */
export const validateInfo: CommandInfo = {
  name: 'validate',
  summary: 'judge captured bodies (JSON or an SSE stream) against the spec, one line per violation',
  help: `Usage: svc-conformance validate FILE... [--kind KIND] [--model-map A=B]... [--strict]

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
  --model-map A=B        captured model id and spec model id, in either order (e.g.
                         deepseek-chat=svc-chat): notes which spec model a body came from;
                         repeatable, or pairs joined by commas; an id may hold commas,
                         slashes, colons and @ (emu,deepseek-chat=svc-chat)
  --strict               judge with the strict profile: fields the description does not
                         list are reported at level strict; should and strict lines fail
  -h, --help             show this help

Exit codes: 0 no must-level violation (with --strict: no should or strict one
either); 1 a violation at a failing level; 2 a file cannot be read, or its kind
cannot be told (pass --kind).`,
};
