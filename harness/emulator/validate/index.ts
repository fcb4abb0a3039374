export type { RequestSite } from './site.ts';
export { validateObject } from './object.ts';
export { checkRules } from './rules.ts';
export { validateRequest } from './request.ts';
export { ruleStatus, unspecifiedStatus } from './statuses.ts';
