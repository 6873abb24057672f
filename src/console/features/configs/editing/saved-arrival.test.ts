import { describe, expect, it } from 'vitest';
import { appliedOffsets, savedArrivalOf } from './saved-arrival';

const TEXT = `apps:
  - id: rocket
    name: Rocket 🚀 app
    platform: web
`;

describe('applied ranges -> editor offsets', () => {
  it('places a range as validation issues are placed: 1-based, UTF-16 columns', () => {
    // "platform" on line 4, after a line whose emoji counts two code units.
    const [range] = appliedOffsets(TEXT, [
      { path: '/apps/0/platform', line: 4, column: 5, length: 8 },
    ]);
    expect(TEXT.slice(range?.start, range?.end)).toBe('platform');
    const [emoji] = appliedOffsets(TEXT, [{ path: '/x', line: 3, column: 18, length: 2 }]);
    expect(TEXT.slice(emoji?.start, emoji?.end)).toBe('🚀');
  });

  it('lets a range run over line ends', () => {
    const [item] = appliedOffsets(TEXT, [
      { path: '/apps/0', line: 2, column: 5, length: TEXT.length - TEXT.indexOf('id:') },
    ]);
    expect(TEXT.slice(item?.start, item?.end)).toBe(TEXT.slice(TEXT.indexOf('id:')));
  });
});

describe('the router state a save leaves for the new draft', () => {
  it('keeps well-formed ranges and the view state, and nothing else', () => {
    const ranges = [{ path: '/apps/0', line: 2, column: 5, length: 3 }];
    expect(savedArrivalOf({ saved: { appliedRanges: ranges, viewState: { x: 1 } } })).toEqual({
      appliedRanges: ranges,
      viewState: { x: 1 },
    });
    expect(savedArrivalOf({ saved: { appliedRanges: [{ path: '/a' }, ...ranges] } })).toEqual({
      appliedRanges: ranges,
      viewState: undefined,
    });
    expect(savedArrivalOf(null)).toBeNull();
    expect(savedArrivalOf({ saved: { appliedPaths: ['/apps/0'] } })).toBeNull();
  });
});
