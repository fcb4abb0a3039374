import { describe, expect, test } from 'vitest';
import type { FixtureExchange } from './fixtureFormat.ts';
import { recordedResponse, type Pacer } from './recordedResponse.ts';

/** A clock that moves only when the stream waits on it, and remembers each wait. */
function testClock(): Pacer & { waits: number[] } {
  let now = 1_000;
  const waits: number[] = [];
  return {
    waits,
    now: () => now,
    sleep: async (ms) => {
      waits.push(ms);
      now += ms;
    },
  };
}

const stream: FixtureExchange = {
  key: { method: 'POST', path: '/chat/completions', secret: 0, bodyHash: '0000000000000000' },
  request: { method: 'POST', path: '/chat/completions', headers: {} },
  response: { status: 200, headers: { 'content-type': 'text/event-stream' }, events: [{ at: 0, data: '{"n":1}' }, { at: 5, data: ':keep-alive' }, { at: 60, data: '[DONE]' }] },
};

// What the replay's timing stands for, without timing the wall: the recorded spacing is what the
// stream waits for, and --fast waits for nothing. The bytes are the same either way.
describe('a replayed stream, paced by the recording', () => {
  test('waits out the recorded spacing between events', async () => {
    const clock = testClock();
    const text = await recordedResponse(stream, false, clock).text();
    expect(text).toBe('data: {"n":1}\n\n:keep-alive\n\ndata: [DONE]\n\n');
    expect(clock.waits).toEqual([5, 55]);
  });

  test('with the stream\'s own text, its exact bytes, each piece at its event\'s time', async () => {
    const clock = testClock();
    const raw = 'data:{"n":1}\r\n\r\n: keep-alive\r\n\r\ndata: [DONE]\r\n\r\n';
    const text = await recordedResponse({ ...stream, response: { ...stream.response!, text: raw } }, false, clock).text();
    expect(text).toBe(raw);
    expect(clock.waits).toEqual([5, 55]);
    // Events edited by hand no longer say what the text says: the edit is served, framed anew.
    const edited = { ...stream.response!, text: raw, events: stream.response!.events!.slice(0, 2) };
    expect(await recordedResponse({ ...stream, response: edited }, true, testClock()).text()).toBe('data: {"n":1}\n\n:keep-alive\n\n');
  });

  test('--fast sends every event at once', async () => {
    const clock = testClock();
    const text = await recordedResponse(stream, true, clock).text();
    expect(text).toBe('data: {"n":1}\n\n:keep-alive\n\ndata: [DONE]\n\n');
    expect(clock.waits).toEqual([]);
  });
});
