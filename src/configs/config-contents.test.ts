import { describe, expect, it } from 'vitest';
import { readConfigContents } from './config-contents';

describe('readConfigContents', () => {
  it('reads apps and tests of a valid config, keeping each test index', () => {
    const contents = readConfigContents({
      apps: [{ id: 'checkout', name: 'Checkout', platform: 'web', settings: { theme: 'dark' } }],
      ab_tests: [
        {
          id: 'bigger-button',
          app: 'checkout',
          description: 'Try it',
          status: 'promoted',
          variants: [
            { id: 'control', weight: 50 },
            { id: 'big', weight: 50, settings: { button_size: 'large', max: 3, on: true } },
          ],
          metrics: ['checkout-rate', 'revenue'],
          guardrails: ['errors'],
          winner: 'big',
          started_at: '2026-11-22T10:00:00.000Z',
          ended_at: '2026-11-29T10:00:00.000Z',
        },
      ],
    });
    expect(contents).toEqual({
      apps: [{ id: 'checkout', name: 'Checkout', enabled: true, settings: { theme: 'dark' } }],
      abTests: [
        {
          index: 0,
          id: 'bigger-button',
          app: 'checkout',
          description: 'Try it',
          status: 'promoted',
          variants: [
            { id: 'control', weight: 50, settings: {} },
            { id: 'big', weight: 50, settings: { button_size: 'large', max: 3, on: true } },
          ],
          metrics: ['checkout-rate', 'revenue'],
          guardrails: ['errors'],
          winner: 'big',
          startedAt: '2026-11-22T10:00:00.000Z',
          endedAt: '2026-11-29T10:00:00.000Z',
        },
      ],
    });
  });

  it('reads a broken draft leniently: no id, no entry; wrong types read as absent', () => {
    const contents = readConfigContents({
      apps: [{ name: 'No id' }, { id: 'web', enabled: false, settings: { nested: { a: 1 } } }],
      ab_tests: [
        'not a test',
        {
          id: 't',
          app: 7,
          status: 'paused',
          variants: [{ id: 'a', weight: '50' }, { weight: 1 }],
          metrics: ['ok', 7, null],
          guardrails: 'errors',
        },
      ],
    });
    expect(contents.apps).toEqual([{ id: 'web', name: null, enabled: false, settings: {} }]);
    expect(contents.abTests).toEqual([
      {
        index: 1,
        id: 't',
        app: null,
        description: null,
        status: 'paused',
        variants: [{ id: 'a', weight: null, settings: {} }],
        metrics: ['ok'],
        guardrails: [],
        winner: null,
        startedAt: null,
        endedAt: null,
      },
    ]);
  });

  it('reads an empty or non-mapping document as no apps and no tests', () => {
    for (const data of [null, 'text', [], { apps: 'x', ab_tests: {} }]) {
      expect(readConfigContents(data)).toEqual({ apps: [], abTests: [] });
    }
  });
});
