import { AI_SDK_CLIENT } from './aiSdk.ts';
import { ANTHROPIC_CLIENT } from './anthropic.ts';
import { LANGCHAIN_CLIENT } from './langchain.ts';
import { OPENAI_CLIENT } from './openai.ts';
import { CLIENT_NAMES, type ClientName } from './names.ts';

/** A pinned client the client checks hand answers to: its name in check ids, its package, and how it is loaded. */
export interface PinnedClient {
  name: string;
  package: string;
  /** The installed module's version, or why it is not there (clientCheck.ts loaderOf). */
  load(): Promise<{ version: string } | { missing: string }>;
}

export { CLIENT_NAMES, DEFAULT_CLIENTS } from './names.ts';

/** Each client by its name: a name of CLIENT_NAMES without its client, or a client not named there, does not compile. */
const BY_NAME: { readonly [N in ClientName]: PinnedClient & { name: N } } = { openai: OPENAI_CLIENT, anthropic: ANTHROPIC_CLIENT, 'ai-sdk': AI_SDK_CLIENT, langchain: LANGCHAIN_CLIENT };

/** Every client the checks know, in the order of CLIENT_NAMES, the one list of their names. */
export const CLIENTS: readonly PinnedClient[] = CLIENT_NAMES.map((name) => BY_NAME[name]);
