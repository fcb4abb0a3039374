/**
 * The messages format's addresses, which the description leaves open ("Request path under this
 * base: not shown"), chosen once by this project for every side: the emulator mounts them, the
 * checks post there, a target defaults to them, recordings keep them, OpenAPI documents them.
 */
/** {messages_base_url}, when not given: below {base_url}. */
export const MESSAGES_BASE_PATH = '/anthropic';
/** The endpoint below {messages_base_url}, where the widely used messages-format clients post. */
export const MESSAGES_PATH = '/v1/messages';
