import { ANTHROPIC_CLIENT } from './anthropic.ts';
import { OPENAI_CLIENT } from './openai.ts';

/** A pinned client the client checks hand answers to: its name in check ids, its package, and how it is loaded. */
export interface PinnedClient {
  name: string;
  package: string;
  /** The installed module's version, or why it is not there (clientCheck.ts loaderOf). */
  load(): Promise<{ version: string } | { missing: string }>;
}

/** Every client the checks know, in the order `list --clients` shows them. */
export const CLIENTS: readonly PinnedClient[] = [OPENAI_CLIENT, ANTHROPIC_CLIENT];
