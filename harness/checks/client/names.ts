/**
 * The pinned clients by name, in the order `list --clients` shows them (index.ts pairs each with
 * its package and loader). Names only, imported by `run --help` without loading any client code.
 */
export const CLIENT_NAMES = ['openai', 'anthropic', 'ai-sdk', 'langchain'] as const;

export type ClientName = (typeof CLIENT_NAMES)[number];

/**
 * The clients a run hands answers to when --clients does not say: the official two, whose makers
 * publish the formats the service speaks. The others are chosen by name.
 */
export const DEFAULT_CLIENTS: readonly string[] = ['openai', 'anthropic'];
