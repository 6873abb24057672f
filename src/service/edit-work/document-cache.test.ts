import { describe, expect, it } from 'vitest';
import type { EditableConfig } from '../../configs/edit';
import { parseConfig } from '../../configs/parse';
import { DocumentCache, estimatedBytes } from './document-cache';

const config = (apps: number): EditableConfig => ({
  parsed: parseConfig(
    `apps:\n${Array.from({ length: apps }, (_, index) => `  - id: app-${index}\n    name: App ${index}\n    platform: ios\n`).join('')}`,
  ),
});

describe('the parsed-document cache', () => {
  it('answers only for the exact text the document was parsed from, and only once', () => {
    const cache = new DocumentCache(10 * 1024 * 1024);
    const edited = config(3);
    cache.put('cfg_a', edited);
    expect(cache.take('cfg_a', `${edited.parsed.text}# changed\n`)).toBeUndefined();
    // A mismatch drops the entry: it can never match the stored text again.
    expect(cache.size).toBe(0);
    cache.put('cfg_a', edited);
    expect(cache.take('cfg_a', edited.parsed.text)).toBe(edited);
    expect(cache.take('cfg_a', edited.parsed.text)).toBeUndefined();
  });

  it('holds documents up to its byte budget, dropping the least recently used first', () => {
    const one = config(20);
    const budget = estimatedBytes(one.parsed.text) * 2.5;
    const cache = new DocumentCache(budget);
    cache.put('cfg_1', config(20));
    cache.put('cfg_2', config(20));
    cache.put('cfg_3', config(20));
    expect(cache.size).toBe(2);
    expect(cache.bytes).toBeLessThanOrEqual(budget);
    expect(cache.take('cfg_1', one.parsed.text)).toBeUndefined();
    expect(cache.take('cfg_3', one.parsed.text)).toBeDefined();
  });

  it('keeps nothing larger than its whole budget', () => {
    const big = config(50);
    const cache = new DocumentCache(estimatedBytes(big.parsed.text) - 1);
    cache.put('cfg_big', big);
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });
});
