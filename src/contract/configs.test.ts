import { describe, expect, it } from 'vitest';
import {
  configListQuerySchema,
  configListSchema,
  configRecordSchema,
  etagOf,
  historyListSchema,
  ifMatchHeadersSchema,
  publishRequestSchema,
  configOfEtag,
  ifNoneMatchHits,
} from './configs';
import { healthSchema } from './status-endpoints';

const validation = { valid: true, error_count: 0, warning_count: 0, issues: [] };
const published = {
  id: 'cfg_2',
  kind: 'published',
  label: 'Add checkout',
  revision: 1,
  live: true,
  base_config_id: 'cfg_1',
  created_at: '2026-11-22T10:00:00.000Z',
  updated_at: '2026-11-22T10:00:00.000Z',
  published_at: '2026-11-22T10:00:00.000Z',
};

describe('config records', () => {
  it('parses a list item of each kind; the first config of an account has no base', () => {
    const draft = {
      ...published,
      id: 'cfg_3',
      kind: 'draft',
      live: false,
      published_at: undefined,
    };
    const first = { ...published, id: 'cfg_1', live: false, base_config_id: null };
    const list = [draft, published, first].map((config) => ({
      ...config,
      valid: true,
      error_count: 0,
      warning_count: 2,
    }));
    expect(configListSchema.parse(list)).toHaveLength(3);
  });

  it('parses a config with its YAML and report', () => {
    const record = { ...published, yaml: 'apps: []\n', validation };
    expect(configRecordSchema.parse(record)).toEqual(record);
    expect(configRecordSchema.safeParse({ ...published, validation }).success).toBe(false);
  });

  it('filters the list by kind only', () => {
    expect(configListQuerySchema.parse({})).toEqual({});
    expect(configListQuerySchema.parse({ kind: 'draft' })).toEqual({ kind: 'draft' });
    expect(configListQuerySchema.safeParse({ kind: 'live' }).success).toBe(false);
  });

  it('publishes with an optional label of at most 200 characters', () => {
    expect(publishRequestSchema.parse({})).toEqual({});
    expect(publishRequestSchema.parse({ summary: 'v2' })).toEqual({ summary: 'v2' });
    expect(publishRequestSchema.safeParse({ summary: 'x'.repeat(201) }).success).toBe(false);
  });

  it('parses history entries of every action', () => {
    const entries = [
      {
        at: '2026-11-22T10:00:00.000Z',
        action: 'edit',
        config_id: 'cfg_3',
        revision: 2,
        summary: 'Add checkout',
        api_key_id: 'key_1',
        api_key_name: 'CI deploys',
        actor_email: 'ada@example.com',
        operations: [{ create_app: [{ id: 'checkout', name: 'Checkout', platform: 'web' }] }],
        applied_paths: ['/apps/0'],
      },
      {
        at: published.created_at,
        action: 'publish',
        config_id: 'cfg_2',
        revision: 1,
        operations: [],
        applied_paths: [],
      },
      {
        at: published.created_at,
        action: 'create',
        config_id: 'cfg_1',
        revision: 1,
        operations: [],
        applied_paths: [],
      },
    ];
    expect(historyListSchema.parse(entries)).toEqual(entries);
    expect(historyListSchema.safeParse([{ ...entries[0], action: 'rename' }]).success).toBe(false);
  });

  it('answers health with status ok, or degraded and why', () => {
    expect(healthSchema.parse({ status: 'ok' })).toEqual({ status: 'ok' });
    const degraded = { status: 'degraded', detail: 'The database is not answering' };
    expect(healthSchema.parse(degraded)).toEqual(degraded);
    expect(healthSchema.safeParse({ status: 'down' }).success).toBe(false);
  });
});

describe('ETags of configs', () => {
  it('names a config by its id and revision, and reads both back', () => {
    expect(etagOf('cfg_01ABC', 7)).toBe('"cfg_01ABC:7"');
    expect(configOfEtag('"cfg_01ABC:7"')).toEqual({ id: 'cfg_01ABC', revision: 7 });
    expect(configOfEtag(etagOf('cfg_X', 123456))).toEqual({ id: 'cfg_X', revision: 123456 });
  });

  it('gives two configs at the same revision different ETags', () => {
    expect(etagOf('cfg_A', 1)).not.toBe(etagOf('cfg_B', 1));
  });

  it('still reads a bare revision, as If-Match has always taken it', () => {
    expect(configOfEtag('"7"')).toEqual({ revision: 7 });
  });

  it('reads nothing from what is not one of its ETags', () => {
    for (const value of [
      '7',
      'W/"7"',
      '"0"',
      '"07"',
      '"x"',
      '*',
      '"7", "8"',
      '"cfg_A:0"',
      '"a b:1"',
    ]) {
      expect(configOfEtag(value)).toBeNull();
    }
  });

  it('takes If-Match as an optional, lower-case request header', () => {
    expect(ifMatchHeadersSchema.parse({})).toEqual({});
    expect(ifMatchHeadersSchema.parse({ 'if-match': '"3"', host: 'x' })).toEqual({
      'if-match': '"3"',
    });
    expect(ifMatchHeadersSchema.parse({ 'if-match': '"cfg_A:3"' })).toEqual({
      'if-match': '"cfg_A:3"',
    });
    expect(ifMatchHeadersSchema.safeParse({ 'if-match': '3' }).success).toBe(false);
  });

  it('matches If-None-Match as RFC 9110 says for a GET: lists, weak tags, *', () => {
    const etag = etagOf('cfg_A', 2);
    expect(ifNoneMatchHits(etag, etag)).toBe(true);
    expect(ifNoneMatchHits(`"x", W/${etag}`, etag)).toBe(true);
    expect(ifNoneMatchHits('*', etag)).toBe(true);
    expect(ifNoneMatchHits(undefined, etag)).toBe(false);
    expect(ifNoneMatchHits('"2"', etag)).toBe(false);
    expect(ifNoneMatchHits(etagOf('cfg_B', 2), etag)).toBe(false);
  });
});
