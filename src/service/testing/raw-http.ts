/**
 * HTTP/1.1 over a bare TCP socket, for what no HTTP client sends: malformed request lines,
 * oversized headers, requests that stall halfway. Test-only.
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  readonly status: number;
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

const INTERIM = /^HTTP\/1\.[01] 1\d\d /;

/**
 * The first final response in `received`, past any `100 Continue` (Content-Length bodies
 * only: all this service sends); undefined until all of it is there.
 */
export function parseResponse(received: Buffer): RawResponse | undefined {
  let bytes = received;
  for (;;) {
    // latin1: one character a byte, so that text offsets are byte offsets.
    const text = bytes.toString('latin1');
    const end = text.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    if (INTERIM.test(text)) {
      bytes = bytes.subarray(end + 4);
      continue;
    }
    const [statusLine = '', ...lines] = text.slice(0, end).split('\r\n');
    const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1]);
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    if (bytes.length < end + 4 + length) return undefined;
    return { status, headers, body: bytes.subarray(end + 4, end + 4 + length).toString('utf8') };
  }
}

export interface RawConnection {
  readonly socket: Socket;
  /** Everything the server has sent so far. */
  received(): Buffer;
  /** Resolves once the server has sent `text` (e.g. `100 Continue`). */
  until(text: string): Promise<void>;
  /** Resolves with the server's first final response once all of it has arrived. */
  response(): Promise<RawResponse>;
  /** Resolves once the socket is closed, by either side. */
  readonly closed: Promise<void>;
}

export function openConnection(port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let bytes = Buffer.alloc(0);
    const waiting: (() => void)[] = [];
    const wakeAll = () => waiting.splice(0).forEach((wake) => wake());
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      wakeAll();
    });
    // A reset after the answer is not this helper's to judge; `closed` still resolves.
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) =>
      socket.on('close', () => {
        wakeAll();
        done();
      }),
    );
    const until = async <T>(found: () => T | undefined, what: string): Promise<T> => {
      for (;;) {
        const value = found();
        if (value !== undefined) return value;
        if (socket.destroyed || socket.readableEnded)
          throw new Error(`closed before ${what}: ${JSON.stringify(bytes.toString('latin1'))}`);
        await new Promise<void>((wake) => waiting.push(wake));
      }
    };
    socket.once('connect', () =>
      resolve({
        socket,
        received: () => bytes,
        closed,
        until: (text) =>
          until(() => (bytes.toString('latin1').includes(text) ? true : undefined), text).then(
            () => undefined,
          ),
        response: () => until(() => parseResponse(bytes), 'a whole response'),
      }),
    );
    socket.once('error', reject);
  });
}
