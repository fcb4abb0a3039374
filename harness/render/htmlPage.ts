import { createHash } from 'node:crypto';
import { escapeHtml as h } from './escape.ts';

/** A CSP source for an inline block: its SHA-256, so that block and nothing else runs or styles. */
export const cspHash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The head of every page the harness writes (a cell's report, the run's index, the trend): one
 * inline style, one optional inline script, and a Content-Security-Policy that allows those two by
 * their hashes and nothing else (no network, no inline style attributes).
 */
export function pageHead(title: string, css: string, script?: string): string[] {
  const csp = `default-src 'none'; style-src ${cspHash(css)};${script === undefined ? '' : ` script-src ${cspHash(script)};`} base-uri 'none'; form-action 'none'`;
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<meta http-equiv="Content-Security-Policy" content="${h(csp)}">`,
    `<title>${h(title)}</title>`,
    `<style>${css}</style>`,
    '</head>',
  ];
}
