import { serializeRunSummary, type RunRecord, type RunSummary } from '#harness/results/index.ts';
import { renderIndexPage } from './indexPage.ts';
import { renderMarkdownSummary } from './markdownSummary.ts';
import { renderHtml } from './html.ts';
import { renderJson } from './json.ts';
import { renderJunit } from './junit.ts';
import { renderMarkdown } from './markdown.ts';

export { renderHtml, renderJson, renderJunit, renderMarkdown };
export { renderIndexPage, renderMarkdownSummary };

/** A per-cell report: pure, from the record alone, so any report can be rebuilt from report.json. */
export type Renderer = (record: RunRecord) => string;

/** Each per-cell report by name, with the file it is written to in the cell's folder. */
export const RENDERERS: Readonly<Record<'json' | 'markdown' | 'junit' | 'html', { file: string; render: Renderer }>> = {
  json: { file: 'report.json', render: renderJson },
  markdown: { file: 'report.md', render: renderMarkdown },
  junit: { file: 'junit.xml', render: renderJunit },
  html: { file: 'report.html', render: renderHtml },
};

/** A report across the cells of a run (or of merged shards): pure, from the summary and the records. */
export type SummaryRenderer = (summary: RunSummary, records: readonly RunRecord[]) => string;

/** Each report across the cells by name, with the file it is written to in the report directory. */
export const SUMMARY_RENDERERS: Readonly<Record<'json' | 'markdown' | 'html', { file: string; render: SummaryRenderer }>> = {
  json: { file: 'summary.json', render: (summary) => serializeRunSummary(summary) },
  markdown: { file: 'summary.md', render: renderMarkdownSummary },
  html: { file: 'index.html', render: renderIndexPage },
};
