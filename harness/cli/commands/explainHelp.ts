import type { CommandInfo } from '../command.ts';

/** `explain` in the command list and its `--help`: loaded without the command's code. */
export const explainInfo: CommandInfo = {
  name: 'explain',
  summary: 'what one check is: its severity and basis, the spec entries it enforces, the faults that show it failing',
  help: `Usage: svc-conformance explain CHECK [--spec DIR]

Prints what the check CHECK (an id, as \`svc-conformance list\` shows) is:

  - its title, area, severity and basis (for a basis entailed from the
    description, the phrase it is entailed from);
  - each spec entry it enforces, read from spec/: its statement, notes and
    source where it has them, and its other keys;
  - the models of the spec it runs on, and the features a run may leave out
    (--without) that it needs by its spec entries;
  - the emulator faults that break an entry it enforces (the rule of the fault
    walk: the entry itself, one inside it, or one containing it), each with
    the command that runs the check against it;
  - where to see what it sends: nothing is sent to explain a check; a run with
    a fault writes the failing exchange and a curl reproducer to report.md, and
    \`record --out DIR\` stores every exchange it makes.

Options:
  --spec DIR   spec directory (default: the spec/ shipped with the harness)
  -h, --help   show this help

Exit codes: 0 the check was explained; 2 an unknown check (the closest ids are
named), no CHECK or more than one, a bad flag, or a spec that does not load.`,
};
