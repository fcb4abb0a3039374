/** Its own module so that what a run found (the load phase's answers, checks/load/run.ts) can name it without the judge that finds it. */

/** A rule an answer breaks at must: the id of the check at rest that holds it, what it found, and where (a chunk). */
export interface Breach {
  rule: string;
  /**
   * What two answers breaking the same way share: the rule, and for a schema or a sum the place and
   * the keyword (never the values a message quotes, which differ from answer to answer).
   */
  kind: string;
  message: string;
  /** The chunk of a stream the breach was found in. */
  chunk?: number;
}
