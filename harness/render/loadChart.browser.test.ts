/**
 * The load chart as a reader sees it: report.html (one model) and index.html (two models) written
 * to a folder, opened from disk in a real headless chromium (playwright-core driving Debian's
 * chromium), and measured: the SVG is drawn at a size, each model has its lines, the axis labels and
 * ticks are laid out where they can be read, the page's CSP refuses nothing, and the chart has an
 * accessible name. A screenshot of each is taken (LOAD_CHART_SCREENSHOT=dir keeps them). Skipped,
 * saying why, where no chromium is installed; under CI=true it must run (.ci/run installs it).
 */
import { copyFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import { summaryOf } from '#harness/results/index.ts';
import { loadFiguresOf } from '#harness/results/loadFigures.ts';
import type { RunRecord } from '#harness/results/runRecord.ts';
import { chromiumStatus } from '#harness/testing/chromium.ts';
import { rampLoadRun } from '#harness/testing/sampleLoad.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { renderHtml } from './html.ts';
import { renderIndexPage } from './indexPage.ts';

describe('chromiumStatus', () => {
  test('runs where chromium is; skips saying what to install; fails under CI=true', () => {
    expect(chromiumStatus({}, (p) => p === '/usr/bin/chromium')).toEqual({ present: true, path: '/usr/bin/chromium' });
    expect(chromiumStatus({ CHROMIUM_PATH: '/opt/c' }, (p) => p === '/opt/c')).toEqual({ present: true, path: '/opt/c' });
    expect(chromiumStatus({}, () => false)).toMatchObject({ skip: expect.stringContaining('apt-get install -y chromium') });
    expect(chromiumStatus({ CI: 'true' }, () => false)).toMatchObject({ fail: expect.stringContaining('no chromium at /usr/bin/chromium') });
  });
});

const status = chromiumStatus();
if ('fail' in status) throw new Error(`the load chart in a browser: ${status.fail}`);

const loaded = (model: string, shape: Parameters<typeof rampLoadRun>[2]): RunRecord => ({
  ...sampleRecord(),
  model,
  options: { ...sampleRecord().options, load: 16 },
  load: loadFiguresOf(rampLoadRun(model, 16, shape)),
});
const flash = loaded('svc-v4-flash', { ttftMs: (n) => 80 + 12 * n, gapMs: (n) => 15 + n, refused: (n) => (n === 16 ? 6 : 0) });
const pro = loaded('svc-v4-pro', { ttftMs: (n) => 200 + 30 * n, gapMs: (n) => 30 + 2 * n, refused: (n) => (n >= 8 ? 2 : 0) });

/** What the page shows of its chart, measured by the browser (a string, evaluated there: this project's TypeScript has no DOM types). */
const MEASURE = `(() => {
  const svg = document.querySelector('figure.load-chart svg');
  const box = (el) => { const r = el.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; };
  const texts = (selector) => [...svg.querySelectorAll(selector)].map((t) => ({ text: t.textContent, box: box(t), fill: getComputedStyle(t).fill, panel: t.closest('g.panel')?.getAttribute('data-panel') ?? null }));
  return {
    svg: box(svg),
    paths: [...svg.querySelectorAll('path.series')].map((p) => ({ series: p.getAttribute('data-series'), figure: p.getAttribute('data-figure'), length: p.getTotalLength(), box: box(p) })),
    axisLabels: texts('text.axis-label'),
    ticks: texts('text.tick'),
    legend: [...svg.querySelectorAll('g.legend-entry')].map((g) => ({ series: g.getAttribute('data-series'), box: box(g) })),
    background: getComputedStyle(document.body).backgroundColor,
  };
})()`;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
interface Measured {
  svg: Box;
  paths: { series: string; figure: string; length: number; box: Box }[];
  axisLabels: { text: string; box: Box; fill: string; panel: string | null }[];
  ticks: { text: string; box: Box; fill: string; panel: string | null }[];
  legend: { series: string; box: Box }[];
  background: string;
}

const inside = (b: Box, outer: Box) => b.x >= outer.x - 0.5 && b.y >= outer.y - 0.5 && b.x + b.width <= outer.x + outer.width + 0.5 && b.y + b.height <= outer.y + outer.height + 0.5;
const overlap = (a: Box, b: Box) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** Opens `file` and measures its chart; every console error (a refusal of the CSP among them) is collected. */
async function open(page: Page, file: string): Promise<{ measured: Measured; errors: string[] }> {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(pathToFileURL(file).href);
  return { measured: (await page.evaluate(MEASURE)) as Measured, errors };
}

/** What every chart must be, read by the browser: drawn, labelled where it can be read, each series a line. */
function expectReadable(m: Measured, models: readonly string[]): void {
  expect(m.svg.width).toBeGreaterThan(400);
  expect(m.svg.height).toBeGreaterThan(200);
  // A line per model in each panel: time to first token p50 and p95, and the throughput.
  expect([...new Set(m.paths.map((p) => p.series))].sort()).toEqual([...models].sort());
  for (const model of models) expect(m.paths.filter((p) => p.series === model).map((p) => p.figure).sort()).toEqual(['tokens-per-second', 'ttft-p50', 'ttft-p95']);
  for (const p of m.paths) {
    expect(p.length, `${p.series} ${p.figure}`).toBeGreaterThan(50);
    expect(inside(p.box, m.svg), `${p.series} ${p.figure} inside the chart`).toBe(true);
  }
  // Axis labels: each panel's x and y, with a size, inside the chart, painted (not transparent, not the page's colour).
  expect(m.axisLabels.map((l) => `${l.panel}: ${l.text}`).sort()).toEqual(['throughput: output tokens/s, all streams', 'throughput: requests in flight', 'ttft: requests in flight', 'ttft: time to first token (ms)']);
  for (const l of [...m.axisLabels, ...m.ticks]) {
    expect(l.box.width, l.text).toBeGreaterThan(0);
    expect(l.box.height, l.text).toBeGreaterThan(8);
    expect(inside(l.box, m.svg), `${l.text} inside the chart`).toBe(true);
    expect(l.fill).not.toMatch(/^(none|transparent|rgba\(.*, 0\))$/);
    expect(l.fill).not.toBe(m.background);
  }
  // Ticks: the steps on x (1, 4, 8, 16), round numbers on y, none overlapping another.
  for (const panel of ['ttft', 'throughput']) {
    const ticks = m.ticks.filter((t) => t.panel === panel);
    expect(ticks.map((t) => t.text)).toEqual(expect.arrayContaining(['0', '1', '4', '8', '16']));
    for (const [i, a] of ticks.entries()) for (const b of ticks.slice(i + 1)) expect(overlap(a.box, b.box), `ticks ${a.text} and ${b.text} of ${panel}`).toBe(false);
  }
  expect(m.legend.map((l) => l.series)).toEqual([...models]);
  for (const l of m.legend) expect(l.box.width).toBeGreaterThan(40);
}

/** The tests, on the chromium at `path`. */
function inChromium(executable: string): void {
  describe('the load chart in a headless chromium', () => {
    const dir = tempDirs('load-chart-');
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: executable, headless: true });
    });
    afterAll(async () => {
      await browser?.close();
    });

    /** Takes a screenshot of the chart to `name` in the test's folder (and LOAD_CHART_SCREENSHOT's, if set); its size in bytes. */
    async function screenshot(page: Page, folder: string, name: string): Promise<number> {
      const path = join(folder, name);
      await page.locator('figure.load-chart').screenshot({ path });
      if (process.env.LOAD_CHART_SCREENSHOT) copyFileSync(path, join(process.env.LOAD_CHART_SCREENSHOT, name));
      return statSync(path).size;
    }

    test('index.html: two models, a line each, axis labels and ticks readable, nothing refused by the CSP', async () => {
      const folder = dir();
      const file = join(folder, 'index.html');
      writeFileSync(file, renderIndexPage(summaryOf([flash, pro], ['a/svc-v4-flash/report.json', 'a/svc-v4-pro/report.json']), [flash, pro]));
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const { measured, errors } = await open(page, file);
      expectReadable(measured, ['svc-v4-flash', 'svc-v4-pro']);
      expect(errors).toEqual([]);
      // Its accessible name is its <title>; its description says the figures in words.
      await expect(page.getByRole('img', { name: /time to first token and output throughput against requests in flight/ }).count()).resolves.toBe(1);
      expect(await screenshot(page, folder, 'index-load-chart.png')).toBeGreaterThan(10_000);
      await page.close();
    });

    test('report.html: its model\'s line, in a page that still allows only its own style and script', async () => {
      const folder = dir();
      const file = join(folder, 'report.html');
      writeFileSync(file, renderHtml(flash));
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      const { measured, errors } = await open(page, file);
      expectReadable(measured, ['svc-v4-flash']);
      expect(errors).toEqual([]);
      expect(await page.locator('#load table.load tbody tr').count()).toBe(4);
      expect(await screenshot(page, folder, 'report-load-chart.png')).toBeGreaterThan(10_000);
      await page.close();
    });
  });
}

if (status.present) inChromium(status.path);
else {
  describe('the load chart in a headless chromium', () => {
    test.skip(status.skip, () => undefined);
  });
}
