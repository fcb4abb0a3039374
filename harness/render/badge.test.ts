import { headOf } from '#harness/core/outcome.ts';
import { describe, expect, test } from 'vitest';
import type { CheckResult } from '#harness/core/outcome.ts';
import { cleanRecord, failingAt, withResults } from '#harness/testing/outcomeRecords.ts';
import { sampleRecord } from '#harness/testing/sampleRecord.ts';
import { wellFormedXml } from '#harness/testing/wellFormedXml.ts';
import { BADGE_COLOURS, badgeContentOf, renderBadge, renderBadgeSvg, textWidth } from './badge.ts';

/** The message box's fill colour(s). */
const fillOf = (svg: string) => [...svg.matchAll(/<rect x="\d+" width="\d+" height="20" fill="([^"]+)"/g)].map((m) => m[1]);

describe('badge', () => {
  test('the SVG is well-formed XML, carries the score text and its title, and is pure', () => {
    const record = sampleRecord();
    const svg = renderBadge([record]);
    expect(wellFormedXml(svg)).toEqual([]);
    expect(svg).toContain('>29/100 failing</text>');
    expect(svg).toContain('<title>conformance: 29/100 failing</title>');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(renderBadge([record])).toBe(svg);
    expect(record).toEqual(sampleRecord());
    // Self-contained: no link, script or font to fetch.
    expect(svg).not.toMatch(/https?:\/\/(?!www\.w3\.org\/2000\/svg)|<script|@import|href=/);
  });

  test('the colour is the gate\'s outcome, whatever the score: a must failure is red even with a high score', () => {
    expect(fillOf(renderBadge([cleanRecord()]))).toEqual([BADGE_COLOURS.brightgreen]);
    expect(renderBadge([cleanRecord()])).toContain('>100/100</text>');
    const mustFailure = badgeContentOf([failingAt('must')]);
    expect(mustFailure.score).toBeGreaterThanOrEqual(75);
    expect(mustFailure).toMatchObject({ outcome: 'fail', colour: BADGE_COLOURS.red, message: `${mustFailure.score}/100 failing` });
    expect(fillOf(renderBadge([sampleRecord()]))).toEqual([BADGE_COLOURS.red]);
  });

  test('several cells: the lowest score, and the gate over all of them', () => {
    const c = badgeContentOf([cleanRecord(), sampleRecord()]);
    expect(c).toMatchObject({ message: '29/100 failing', score: 29, outcome: 'fail', colour: BADGE_COLOURS.red });
  });

  test('nothing judged: grey, saying so', () => {
    const skipped = (r: CheckResult): CheckResult => ({ ...headOf(r), verdict: 'skip', skipKind: 'blocked', reason: 'blocked' });
    const none = withResults(sampleRecord(), sampleRecord().results.map(skipped));
    expect(badgeContentOf([none])).toMatchObject({ message: 'nothing judged', colour: BADGE_COLOURS.lightgrey, outcome: 'nothing-judged', score: undefined });
    expect(renderBadge([none])).toContain('>nothing judged</text>');
    expect(badgeContentOf([])).toMatchObject({ message: 'nothing judged', outcome: 'nothing-judged' });
  });

  test('the label is the caller\'s, escaped; widths grow with the text', () => {
    const svg = renderBadgeSvg({ label: 'a <b> & "c"', message: '87/100', colour: BADGE_COLOURS.brightgreen });
    expect(wellFormedXml(svg)).toEqual([]);
    expect(svg).toContain('a &lt;b&gt; &amp; "c"</text>');
    expect(svg).toContain('aria-label="a &lt;b&gt; &amp; &quot;c&quot;: 87/100"');
    expect(textWidth('conformance')).toBe(72);
    const width = (s: string) => Number(/^<svg[^>]* width="(\d+)"/.exec(s)![1]);
    expect(width(renderBadgeSvg({ label: 'conformance', message: 'passing', colour: '#4c1' }))).toBe(72 + 10 + 46 + 10);
    expect(width(renderBadgeSvg({ label: 'a much longer label', message: 'passing', colour: '#4c1' }))).toBeGreaterThan(138);
  });
});
