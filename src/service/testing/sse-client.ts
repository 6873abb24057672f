/**
 * A Server-Sent Events reader over node:http, for tests of the delivery stream: the answer's
 * status and headers, each event as it arrives, comment lines counted, and the end of the
 * stream. Test-only (and the stream bench's subscribers).
 */
import { request, type Agent, type IncomingHttpHeaders } from 'node:http';

export interface SseEvent {
  readonly event: string;
  readonly id: string | undefined;
  readonly data: string;
  /** performance.now() when its last line arrived. */
  readonly at: number;
}

export interface SseStream {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  /** The body of an answer that is not a stream (a problem). */
  readonly body: string;
  readonly events: SseEvent[];
  /** Comment lines (`: heartbeat`) so far. */
  comments(): number;
  /** Resolves with the next event not yet taken by `next` (waits for it). */
  next(timeoutMs?: number): Promise<SseEvent>;
  /** Resolves once a comment line arrives after this call. */
  nextComment(timeoutMs?: number): Promise<void>;
  /** Resolves once the server has ended the stream (or the connection is gone). */
  readonly ended: Promise<void>;
  isEnded(): boolean;
  close(): void;
}

/** Parses `text/event-stream` lines into events (the standard's rules, minus `retry:`). */
export class SseParser {
  private buffer = '';
  private event = '';
  private id: string | undefined;
  private data: string[] = [];

  constructor(
    private readonly onEvent: (event: SseEvent) => void,
    private readonly onComment: () => void = () => undefined,
  ) {}

  push(chunk: string): void {
    this.buffer += chunk;
    let newline = this.buffer.indexOf('\n');
    while (newline >= 0) {
      const line = this.buffer.slice(0, newline).replace(/\r$/, '');
      this.buffer = this.buffer.slice(newline + 1);
      this.line(line);
      newline = this.buffer.indexOf('\n');
    }
  }

  private line(line: string): void {
    if (line === '') {
      if (this.data.length > 0)
        this.onEvent({
          event: this.event || 'message',
          id: this.id,
          data: this.data.join('\n'),
          at: performance.now(),
        });
      this.event = '';
      this.data = [];
      return;
    }
    if (line.startsWith(':')) {
      this.onComment();
      return;
    }
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'event') this.event = value;
    else if (field === 'data') this.data.push(value);
    else if (field === 'id') this.id = value;
  }
}

export function openSse(
  url: string,
  headers: Record<string, string> = {},
  options: { timeoutMs?: number; agent?: Agent } = {},
): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const events: SseEvent[] = [];
    let comments = 0;
    let taken = 0;
    let ended = false;
    const wakers = new Set<() => void>();
    const wakeAll = () => [...wakers].forEach((wake) => wake());
    const wait = async (done: () => boolean, what: string, timeoutMs: number) => {
      const deadline = Date.now() + timeoutMs;
      while (!done()) {
        if (ended) throw new Error(`the stream ended before ${what}`);
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no ${what} within ${timeoutMs} ms`);
        await new Promise<void>((wake) => {
          const timer = setTimeout(finish, left);
          function finish() {
            clearTimeout(timer);
            wakers.delete(finish);
            wake();
          }
          wakers.add(finish);
        });
      }
    };
    const parser = new SseParser(
      (event) => {
        events.push(event);
        wakeAll();
      },
      () => {
        comments += 1;
        wakeAll();
      },
    );
    const req = request(
      url,
      {
        headers: { accept: 'text/event-stream', ...headers },
        ...(options.agent ? { agent: options.agent } : {}),
      },
      (res) => {
        let markEnded: () => void = () => undefined;
        const endedPromise = new Promise<void>((done) => {
          markEnded = () => {
            ended = true;
            wakeAll();
            done();
          };
        });
        res.on('close', markEnded);
        res.on('error', markEnded);
        const stream = res.headers['content-type']?.startsWith('text/event-stream') === true;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          if (stream) parser.push(chunk);
          else body += chunk;
        });
        const answer: SseStream = {
          status: res.statusCode ?? 0,
          headers: res.headers,
          get body() {
            return body;
          },
          events,
          comments: () => comments,
          async next(timeoutMs = options.timeoutMs ?? 5_000) {
            await wait(() => events.length > taken, 'event', timeoutMs);
            return events[taken++] as SseEvent;
          },
          async nextComment(timeoutMs = options.timeoutMs ?? 5_000) {
            const seen = comments;
            await wait(() => comments > seen, 'comment', timeoutMs);
          },
          ended: endedPromise,
          isEnded: () => ended,
          close: () => req.destroy(),
        };
        if (stream) resolve(answer);
        else res.on('end', () => resolve(answer));
      },
    );
    req.on('error', reject);
    req.end();
  });
}
