import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createSseParser, type SseEvent } from './sse-parser';

interface Heard {
  events: SseEvent[];
  retries: number[];
  comments: string[];
}

function parse(chunks: readonly string[], maxPendingChars?: number): Heard {
  const heard: Heard = { events: [], retries: [], comments: [] };
  const parser = createSseParser(
    {
      event: (event) => heard.events.push(event),
      retry: (ms) => heard.retries.push(ms),
      comment: (text) => heard.comments.push(text),
    },
    maxPendingChars,
  );
  for (const chunk of chunks) parser.push(chunk);
  return heard;
}

/** The text cut at the given offsets. */
function cut(text: string, offsets: readonly number[]): string[] {
  const points = [...new Set(offsets)].sort((a, b) => a - b);
  const chunks: string[] = [];
  let start = 0;
  for (const point of points) {
    chunks.push(text.slice(start, point));
    start = point;
  }
  chunks.push(text.slice(start));
  return chunks;
}

const SAMPLE =
  ': heartbeat\r\n' +
  'retry: 2500\r\n' +
  'event: app\r\n' +
  'id: cfg_1:3\r\n' +
  'data: {"a":1,\r\n' +
  'data:"b":"é ☃ 𝄞"}\r\n' +
  '\r\n' +
  'data: second\r' +
  '\r' +
  'event: app\n' +
  'data\n' +
  '\n';

describe('the event-stream parser', () => {
  it('reads events, ids, retry and comments, whatever the line ends', () => {
    expect(parse([SAMPLE])).toEqual({
      events: [
        { type: 'app', id: 'cfg_1:3', data: '{"a":1,\n"b":"é ☃ 𝄞"}' },
        // The id stays until another one comes; the type does not.
        { type: 'message', id: 'cfg_1:3', data: 'second' },
        { type: 'app', id: 'cfg_1:3', data: '' },
      ],
      retries: [2500],
      comments: [' heartbeat'],
    });
  });

  it('gives the same events however the stream is cut, CR and LF parted included', () => {
    const whole = parse([SAMPLE]);
    for (let first = 0; first <= SAMPLE.length; first += 1) {
      for (let second = first; second <= SAMPLE.length; second += 7) {
        expect(parse(cut(SAMPLE, [first, second]))).toEqual(whole);
      }
    }
    fc.assert(
      fc.property(fc.array(fc.nat({ max: SAMPLE.length }), { maxLength: 20 }), (offsets) => {
        expect(parse(cut(SAMPLE, offsets))).toEqual(whole);
      }),
    );
  });

  it('joins data lines with LF, and takes one space after the colon, not two', () => {
    expect(parse(['data:  two spaces\ndata:none\ndata\n\n']).events).toEqual([
      { type: 'message', id: '', data: ' two spaces\nnone\n' },
    ]);
  });

  it('dispatches nothing for an event without data, and drops an unfinished one', () => {
    expect(parse(['event: app\nid: 7\n\ndata: cut short']).events).toEqual([]);
    // The id was still taken, for the events after it.
    expect(parse(['id: 7\n\ndata: x\n\n']).events).toEqual([
      { type: 'message', id: '7', data: 'x' },
    ]);
  });

  it('ignores a retry that is not digits, an id with NUL, and unknown fields', () => {
    const heard = parse(['retry: 10s\nretry: -1\nid: a\0b\nfoo: bar\ndata: x\n\n']);
    expect(heard.retries).toEqual([]);
    expect(heard.events).toEqual([{ type: 'message', id: '', data: 'x' }]);
  });

  it('an empty id resets the last id', () => {
    expect(parse(['id: 1\ndata: a\n\nid\ndata: b\n\n']).events.map((e) => e.id)).toEqual(['1', '']);
  });

  it('skips a byte-order mark at the start only', () => {
    expect(parse(['\uFEFF', 'data: x\n\n', '\uFEFFdata: y\n\n']).events).toEqual([
      { type: 'message', id: '', data: 'x' },
    ]);
  });

  it('refuses an event past its limit instead of growing without end', () => {
    expect(() => parse(['data: ', 'x'.repeat(100)], 64)).toThrow(/more than 64 characters/);
    expect(() => parse(['data: 1234\n'.repeat(20)], 64)).toThrow(/more than 64/);
    expect(parse(['data: 1234\n\n'.repeat(20)], 64).events).toHaveLength(20);
  });
});
