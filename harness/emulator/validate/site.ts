/** Where a request came in: what validation needs to know besides the body. */
export interface RequestSite {
  /** Key of spec.bases the request came in on: 'base_url' | 'v1' | 'beta' | 'messages_base_url'. */
  base: string;
  /** Key of spec.endpoints: 'chat_completions' | 'fim_completions' | 'messages'. */
  endpoint: string;
  /** The model id as requested (already known to exist and be active; the caller checks unknown/retired models). */
  modelId?: string;
}
