export { chatRequest, type ChatRequestBody, type ChatRequestConstraints } from './chatRequest.ts';
export { invalidChatRequest, breakableRules, type Broken, type BrokenKind, type InvalidChatRequest } from './invalidChatRequest.ts';
