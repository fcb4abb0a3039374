import { AI_SDK_CLIENT } from './aiSdk.ts';
import { ANTHROPIC_CLIENT } from './anthropic.ts';
import { LANGCHAIN_CLIENT } from './langchain.ts';
import { OPENAI_CLIENT } from './openai.ts';

/** A pinned client the client checks hand answers to: its name in check ids, its package, and how it is loaded. */
export interface PinnedClient {
  name: string;
  package: string;
  /** The installed module's version, or why it is not there (clientCheck.ts loaderOf). */
  load(): Promise<{ version: string } | { missing: string }>;
}

export { CLIENT_NAMES, DEFAULT_CLIENTS } from './names.ts';

/** Every client the checks know, in the order of CLIENT_NAMES (a test holds them in step). */
export const CLIENTS: readonly PinnedClient[] = [OPENAI_CLIENT, ANTHROPIC_CLIENT, AI_SDK_CLIENT, LANGCHAIN_CLIENT];
