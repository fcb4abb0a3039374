export { chatRequest, type ChatRequestBody, type ChatRequestConstraints } from './chatRequest.ts';
export { invalidChatRequest, breakableRules, type Broken, type BrokenKind, type InvalidChatRequest } from './invalidChatRequest.ts';
/** The tools drawn requests offer (their parameters are precompiled by the build: checks/writeCheckFacts.ts). */
export { SAMPLE_TOOLS as DRAWN_TOOLS } from './_internals/builders/fieldValues.ts';
