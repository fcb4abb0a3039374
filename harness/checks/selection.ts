import { globMatcher } from '#harness/core/glob.ts';

/**
 * Which checks a run selects: `--only` patterns (any one selects a check; none given selects all)
 * less `--skip` patterns. A pattern is a substring of the check id, or a glob with `*` matching the
 * whole id.
 */
export interface Selection {
  only?: readonly string[];
  skip?: readonly string[];
  /**
   * --clients: the pinned clients whose checks (`client.<client>.*`) run; the others' are not
   * planned. Undefined runs every client's (the CLI always names them: checks/client/index.ts
   * DEFAULT_CLIENTS when the flag is absent).
   */
  clients?: readonly string[];
}

/** The client a `client.<client>.<capability>` check hands answers to; undefined for any other check. */
export const clientOfCheck = (id: string): string | undefined => (id.startsWith('client.') ? id.split('.')[1] : undefined);

export { globMatcher };

/** Whether the selection takes the check `id`. */
export function selector(selection: Selection): (id: string) => boolean {
  const only = (selection.only ?? []).map((p) => globMatcher(p));
  const skip = (selection.skip ?? []).map((p) => globMatcher(p));
  const clients = selection.clients;
  const chosen = (id: string) => {
    const client = clientOfCheck(id);
    return client === undefined || clients === undefined || clients.includes(client);
  };
  return (id) => chosen(id) && (only.length === 0 || only.some((m) => m(id))) && !skip.some((m) => m(id));
}

/** `--only a,b --only c` as [a, b, c]: each value a comma-separated list, blanks dropped. */
export function patternsOf(values: readonly string[] | undefined): string[] {
  return (values ?? []).flatMap((v) => v.split(',')).map((p) => p.trim()).filter((p) => p !== '');
}

/**
 * What is wrong with a selection over these check ids, in words a user acts on: each pattern that
 * matches no check (a typo selects nothing, or leaves nothing out), and a selection left empty.
 */
export function selectionProblems(selection: Selection, ids: readonly string[]): string[] {
  const problems: string[] = [];
  for (const [flag, patterns] of [['--only', selection.only], ['--skip', selection.skip]] as const) {
    for (const p of patterns ?? []) {
      const matches = ids.filter(globMatcher(p));
      if (matches.length === 0) problems.push(`${flag} ${JSON.stringify(p)} matches no check`);
      else if (flag === '--only' && !matches.some(selector({ clients: selection.clients }))) problems.push(`${flag} ${JSON.stringify(p)} matches only checks of clients not chosen: add --clients ${[...new Set(matches.map(clientOfCheck))].join(',')} (chosen: ${selection.clients?.join(', ') || 'none'})`);
    }
  }
  if (problems.length === 0 && !ids.some(selector(selection))) problems.push('the selection leaves no check to run');
  return problems;
}
