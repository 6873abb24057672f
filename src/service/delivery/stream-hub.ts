/**
 * The open delivery streams of one instance (docs/delivery.md, "Push"). Subscribers are
 * grouped by (account, app): after a live change of an account, each of its groups reads
 * its view once, however many subscribe to it, and sends it to those whose last view had
 * another ETag. Client keys are checked again on each change and heartbeat, so a revoked
 * key's streams end. Memory stays bounded: a subscriber that does not read its events is
 * dropped, and the instance holds at most `maxStreams`, one client address at most
 * `maxStreamsPerAddress` (a fleet behind one NAT is normal; all of an instance's is not).
 */
import type { ServerResponse, OutgoingHttpHeaders } from 'node:http';

import { keyCanRead } from '../domain/client-keys';
import type { LiveChanges } from '../store/live-changes/live-changes';
import type { AppViewRead, DeliveryReads } from './delivery-reads';
import { appEvent, eventIdOf, HEARTBEAT } from './sse';
import type { ClientKeyRecord } from '../store/records';

export interface StreamSettings {
  /** Open streams this instance holds at most (`DELIVERY_MAX_STREAMS`). */
  readonly maxStreams: number;
  /** Open streams from one client address at most (`DELIVERY_MAX_STREAMS_PER_ADDRESS`). */
  readonly maxStreamsPerAddress: number;
  /** A comment line this often, and the keys checked again. */
  readonly heartbeatMs: number;
  /** A subscriber with more than this still unsent when an event comes is dropped. */
  readonly maxBufferedBytes: number;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  maxStreams: 10_000,
  maxStreamsPerAddress: 1_000,
  heartbeatMs: 20_000,
  maxBufferedBytes: 1024 * 1024,
};

/** Headers as Fastify's `reply.getHeaders()` gives them. */
export type ResponseHeaders = Readonly<Record<string, string | number | string[] | undefined>>;

function headOf(headers: ResponseHeaders): OutgoingHttpHeaders {
  const head: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) head[name] = value;
  return head;
}

export interface StreamLog {
  warn(details: object, message: string): void;
}

/** What the route read before the stream starts (its 404s come before any byte of it). */
export interface StreamOpening {
  /** The client's address (behind trusted proxies, the one they forward). */
  readonly address: string;
  readonly key: ClientKeyRecord;
  readonly appId: string;
  readonly read: AppViewRead;
  /** The client's `Last-Event-ID`: the view it has. */
  readonly lastEventId: string | undefined;
  /** `changesHeard()` before the route read: a change since then is read again. */
  readonly changesHeardBefore: number;
}

class Subscriber {
  /** The ETag of the last view sent (or that the client said it has). */
  etag: string | undefined;
  ended = false;

  constructor(
    readonly response: ServerResponse,
    readonly address: string,
    readonly keyValue: string,
    readonly accountId: string,
    readonly appId: string,
    private readonly maxBufferedBytes: number,
  ) {}

  /** False when the subscriber was dropped for not reading what it was sent. */
  write(text: string): boolean {
    const response = this.response;
    if (this.ended || response.destroyed || response.writableEnded) return false;
    if (response.writableLength > this.maxBufferedBytes) {
      response.destroy();
      return false;
    }
    response.write(text);
    return true;
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.response.end();
  }
}

interface Group {
  readonly accountId: string;
  readonly appId: string;
  readonly subscribers: Set<Subscriber>;
  refreshing: boolean;
  /** A change came while reading: read again when done. */
  again: boolean;
  /** The last read failed (the database was away): the next heartbeat reads again. */
  stale: boolean;
}

export class StreamHub {
  /** Groups by account, then app. */
  private readonly groups = new Map<string, Map<string, Group>>();
  private open = 0;
  /** Open streams by client address. */
  private readonly byAddress = new Map<string, number>();
  private heard = 0;
  /** Each account's stamp when a word from another process last woke its groups. */
  private readonly stamps = new Map<string, string>();
  private stopListening: (() => void) | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(
    private readonly reads: DeliveryReads,
    private readonly changes: LiveChanges,
    private readonly settings: StreamSettings = DEFAULT_STREAM_SETTINGS,
    private readonly log: StreamLog = { warn: () => undefined },
  ) {}

  /** Open streams. */
  get size(): number {
    return this.open;
  }

  get full(): boolean {
    return this.closed || this.open >= this.settings.maxStreams;
  }

  /** Whether `address` holds its most streams. */
  fullFor(address: string): boolean {
    return (this.byAddress.get(address) ?? 0) >= this.settings.maxStreamsPerAddress;
  }

  /** Live changes heard so far: a route takes it before it reads (`StreamOpening`). */
  changesHeard(): number {
    return this.heard;
  }

  /**
   * Starts the stream on `response` (its head is written here) with the view the route
   * read, unless the client already has it; from then on, the views that follow.
   */
  start(response: ServerResponse, headers: ResponseHeaders, opening: StreamOpening): void {
    const { key, appId, read } = opening;
    const subscriber = new Subscriber(
      response,
      opening.address,
      key.key,
      key.account_id,
      appId,
      this.settings.maxBufferedBytes,
    );
    response.writeHead(200, headOf(headers));
    const group = this.join(subscriber);
    response.once('close', () => this.leave(group, subscriber));
    // A write racing the client's close fails on a dead socket: not the server's error, and
    // `close` above removes the subscriber.
    response.on('error', () => undefined);
    subscriber.etag = read.etag;
    if (opening.lastEventId === eventIdOf(read.view)) response.flushHeaders();
    else subscriber.write(appEvent(read.view));
    // A change between the route's read and now: this subscriber may have missed it.
    if (this.heard !== opening.changesHeardBefore) void this.refresh(group);
  }

  /** Ends every stream (the server is shutting down); new ones are refused. */
  close(): void {
    this.closed = true;
    for (const apps of this.groups.values())
      for (const group of apps.values())
        for (const subscriber of group.subscribers) {
          const socket = subscriber.response.socket;
          subscriber.end();
          // The client reconnects elsewhere; its connection must not hold the drain.
          socket?.end();
        }
    this.stop();
  }

  private join(subscriber: Subscriber): Group {
    let apps = this.groups.get(subscriber.accountId);
    if (!apps) {
      apps = new Map();
      this.groups.set(subscriber.accountId, apps);
    }
    let group = apps.get(subscriber.appId);
    if (!group) {
      group = {
        accountId: subscriber.accountId,
        appId: subscriber.appId,
        subscribers: new Set(),
        refreshing: false,
        again: false,
        stale: false,
      };
      apps.set(subscriber.appId, group);
    }
    group.subscribers.add(subscriber);
    this.open += 1;
    this.byAddress.set(subscriber.address, (this.byAddress.get(subscriber.address) ?? 0) + 1);
    if (this.open === 1) this.begin();
    return group;
  }

  private leave(group: Group, subscriber: Subscriber): void {
    subscriber.ended = true;
    if (!group.subscribers.delete(subscriber)) return;
    this.open -= 1;
    const fromAddress = (this.byAddress.get(subscriber.address) ?? 1) - 1;
    if (fromAddress === 0) this.byAddress.delete(subscriber.address);
    else this.byAddress.set(subscriber.address, fromAddress);
    if (group.subscribers.size === 0) {
      const apps = this.groups.get(group.accountId);
      apps?.delete(group.appId);
      if (apps?.size === 0) {
        this.groups.delete(group.accountId);
        this.stamps.delete(group.accountId);
      }
    }
    if (this.open === 0) this.stop();
  }

  /** The first stream: listen to live changes and beat. */
  private begin(): void {
    this.stopListening = this.changes.subscribe((accountId) => this.changed(accountId));
    this.heartbeat = setInterval(() => void this.beat(), this.settings.heartbeatMs);
  }

  private stop(): void {
    this.stopListening?.();
    this.stopListening = undefined;
    clearInterval(this.heartbeat);
    this.heartbeat = undefined;
  }

  private changed(accountId: string | null): void {
    this.heard += 1;
    if (accountId !== null) void this.refreshAccount(accountId);
    else for (const account of this.groups.keys()) void this.refreshIfMoved(account);
  }

  /**
   * Another process committed, which account's change unknown (SQLite): the account's groups
   * wake only when its stamp moved, so that webhook claims and key touches wake nothing. The
   * first word after the account's streams began always wakes them.
   */
  private async refreshIfMoved(accountId: string): Promise<void> {
    let stamp: string;
    try {
      stamp = await this.reads.changeStamp(accountId);
    } catch {
      return this.refreshAccount(accountId);
    }
    if (this.stamps.get(accountId) === stamp) return;
    this.stamps.set(accountId, stamp);
    await this.refreshAccount(accountId);
  }

  private async refreshAccount(accountId: string): Promise<void> {
    const apps = this.groups.get(accountId);
    if (!apps) return;
    const groups = [...apps.values()];
    await this.checkKeys(groups.flatMap((group) => [...group.subscribers]));
    await Promise.all(groups.map((group) => this.refresh(group)));
  }

  /** Reads the group's view once and sends it to those who have another; coalesces changes. */
  private async refresh(group: Group): Promise<void> {
    if (group.refreshing) {
      group.again = true;
      return;
    }
    group.refreshing = true;
    try {
      do {
        group.again = false;
        let read: AppViewRead | undefined;
        try {
          read = await this.reads.appView(group.accountId, group.appId);
          group.stale = false;
        } catch (error) {
          group.stale = true;
          this.log.warn(
            { err: error, app: group.appId },
            'delivery stream: reading the view failed',
          );
          return;
        }
        // The app is gone from the live config: as the GET would say 404, the stream ends.
        if (read === undefined) {
          for (const subscriber of group.subscribers) subscriber.end();
          return;
        }
        this.send(group, read);
      } while (group.again && group.subscribers.size > 0);
    } finally {
      group.refreshing = false;
    }
  }

  private send(group: Group, read: AppViewRead): void {
    let event: string | undefined;
    for (const subscriber of group.subscribers) {
      if (subscriber.etag === read.etag) continue;
      event ??= appEvent(read.view);
      if (subscriber.write(event)) subscriber.etag = read.etag;
    }
  }

  /** Ends the streams whose key is revoked or no longer reads their app; one read per key. */
  private async checkKeys(subscribers: readonly Subscriber[]): Promise<void> {
    const byKey = new Map<string, Subscriber[]>();
    for (const subscriber of subscribers) {
      const list = byKey.get(subscriber.keyValue);
      if (list) list.push(subscriber);
      else byKey.set(subscriber.keyValue, [subscriber]);
    }
    await Promise.all(
      [...byKey].map(async ([value, list]) => {
        let key: ClientKeyRecord | undefined;
        try {
          key = await this.reads.clientKey(value);
        } catch (error) {
          // The database is away: the streams go on; the next check decides.
          this.log.warn({ err: error }, 'delivery stream: checking a client key failed');
          return;
        }
        for (const subscriber of list) {
          const allowed =
            key !== undefined &&
            key.account_id === subscriber.accountId &&
            keyCanRead(key, subscriber.appId);
          if (!allowed) subscriber.end();
        }
      }),
    );
  }

  private async beat(): Promise<void> {
    const groups = [...this.groups.values()].flatMap((apps) => [...apps.values()]);
    await this.checkKeys(groups.flatMap((group) => [...group.subscribers]));
    for (const group of groups) {
      for (const subscriber of group.subscribers) subscriber.write(HEARTBEAT);
      if (group.stale) void this.refresh(group);
    }
  }
}
