/**
 * Addresses the spec leaves unspecified, chosen by this project (and overridable by flags): the
 * messages endpoint's path below {messages_base_url}. Checks that use them are advisory where the
 * path itself is what they judge.
 */
export const MESSAGES_PATH = '/v1/messages';
