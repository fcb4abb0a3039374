import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { tempDirs } from '#harness/testing/tempDirs.ts';
import { buildCaptureSet } from './captureSet.ts';
import { readFixture } from './fixtureFormat.ts';

const FIXTURES = fileURLToPath(new URL('../../fixtures/', import.meta.url));
const SET = join(FIXTURES, 'production-captures');
const REAL_WORLD = join(FIXTURES, 'real-world');
const tmp = tempDirs('svc-capture-set-');

const filesOf = (dir: string) => ['manifest.json', ...readdirSync(join(dir, 'exchanges')).sort().map((f) => join('exchanges', f))];

describe('fixtures/production-captures (built from real captures)', () => {
  test('is what captures.yaml builds: the committed files are not edited by hand', () => {
    const dir = tmp();
    cpSync(join(SET, 'captures.yaml'), join(dir, 'captures.yaml'));
    buildCaptureSet(dir, REAL_WORLD);
    expect(filesOf(dir)).toEqual(filesOf(SET));
    for (const f of filesOf(SET)) expect(readFileSync(join(dir, f), 'utf8'), f).toBe(readFileSync(join(SET, f), 'utf8'));
  });

  test('every answer keeps its capture: provenance, the captured bytes, production ids mapped', () => {
    const { manifest, exchanges } = readFixture(SET);
    expect(manifest.coverage).toBe('partial');
    expect(exchanges.length).toBeGreaterThan(0);
    for (const fx of exchanges) {
      const capture = fx.provenance!.capture;
      expect(fx.provenance!.source).toMatch(/^REAL CAPTURE.*@ [0-9a-f]{12}.*recorded /);
      const original = readFileSync(join(REAL_WORLD, capture), 'utf8');
      const served = fx.response!.text ?? fx.response!.events!.map((e) => e.data).join('\n');
      expect(served, capture).not.toMatch(/"deepseek-(chat|reasoner|v4-flash|v4-pro)"/);
      if (fx.response!.text !== undefined) {
        // Byte for byte, but for the ids: leading blank lines and key order stay as captured.
        expect(served.replaceAll('"svc-v4-flash"', '"deepseek-v4-flash"').replaceAll('"svc-chat"', '"deepseek-chat"')).toBe(original);
      }
    }
  });

  test('a broken captures.yaml entry is named', () => {
    const dir = tmp();
    const text = readFileSync(join(SET, 'captures.yaml'), 'utf8').replace('    request:\n      method: POST\n      path: /chat/completions\n      body: { model: svc-v4-flash, messages', '    request:\n      path: /chat/completions\n      body: { model: svc-v4-flash, messages');
    writeFileSync(join(dir, 'captures.yaml'), text);
    expect(() => buildCaptureSet(dir, REAL_WORLD)).toThrow(/captures\.yaml: entries\[0\] needs capture, request\.method and request\.path/);
  });
});
