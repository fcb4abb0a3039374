import type { RunRecord } from '#harness/results/index.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export { renderHtml, renderJson, renderJunit, renderMarkdown };
export { renderMarkdownSummary } from './markdownSummary.ts';
export { renderIndexPage } from './indexPage.ts';

/** A per-cell report: pure, from the record alone, so any report can be rebuilt from report.json. */
export type Renderer = (record: RunRecord) => string;

/** Each per-cell report by name, with the file it is written to in the cell's folder. */
export const RENDERERS: Readonly<Record<'json' | 'markdown' | 'junit' | 'html', { file: string; render: Renderer }>> = {
  json: { file: 'report.json', render: renderJson },
  markdown: { file: 'report.md', render: renderMarkdown },
  junit: { file: 'junit.xml', render: renderJunit },
  html: { file: 'report.html', render: renderHtml },
};
