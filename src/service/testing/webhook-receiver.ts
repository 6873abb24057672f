/**
 * A real webhook receiver on 127.0.0.1 for the sender's tests: it can be down (its port
 * closed), answer a given status, hang, or redirect; it records every request it got and
 * checks each signature with the receivers' own library (standardwebhooks). Test-only.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  readonly id: string;
  readonly timestamp: string;
  readonly body: string;
  readonly headers: IncomingHttpHeaders;
  /** The status it was answered with; null: left hanging. */
  readonly answered: number | null;
  /** Whether its signature verified with the endpoint's secret (when one was given). */
  readonly verified: boolean;
}

/**
 * What the receiver does with a request: answer this status, hang (never answer), redirect,
 * answer 500 with a body of 64 MiB written only as fast as the sender reads it, or answer
 * a status after a pause.
 */
export type Behaviour =
  number | 'hang' | { redirectTo: string } | 'flood' | { status: number; afterMs: number };

/** The flood's size. */
export const FLOOD_BYTES = 64 * 1024 * 1024;

export interface WebhookReceiver {
  readonly port: number;
  /** `http://127.0.0.1:port/path` */
  url(path?: string): string;
  readonly received: ReceivedDelivery[];
  /** The ids of the deliveries it answered 2xx, in the order they came. */
  accepted(): string[];
  behave(behaviour: Behaviour): void;
  /** Closes its port (connections refused) until `up()`. */
  down(): Promise<void>;
  up(): Promise<void>;
  /** Bytes of flood the receiver managed to write (the rest was never asked for). */
  floodWritten(): number;
  /** The secret signatures are checked with. */
  secret: string | undefined;
  close(): Promise<void>;
}

function header(headers: IncomingHttpHeaders, name: string): string {
  const value = headers[name];
  return typeof value === 'string' ? value : '';
}

export async function startWebhookReceiver(initial: Behaviour = 200): Promise<WebhookReceiver> {
  let behaviour = initial;
  const received: ReceivedDelivery[] = [];
  const hanging = new Set<ServerResponse>();
  let floodWritten = 0;
  const flood = (response: ServerResponse) => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    let closed = false;
    response.on('close', () => (closed = true));
    response.writeHead(500);
    const pump = () => {
      while (!closed && floodWritten < FLOOD_BYTES) {
        floodWritten += chunk.length;
        if (!response.write(chunk)) return void response.once('drain', pump);
      }
      response.end();
    };
    pump();
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let verified = false;
      if (receiver.secret !== undefined) {
        try {
          new Webhook(receiver.secret).verify(body, {
            'webhook-id': header(request.headers, 'webhook-id'),
            'webhook-timestamp': header(request.headers, 'webhook-timestamp'),
            'webhook-signature': header(request.headers, 'webhook-signature'),
          });
          verified = true;
        } catch {
          verified = false;
        }
      }
      const now = behaviour;
      received.push({
        id: header(request.headers, 'webhook-id'),
        timestamp: header(request.headers, 'webhook-timestamp'),
        body,
        headers: request.headers,
        answered:
          now === 'hang'
            ? null
            : now === 'flood'
              ? 500
              : typeof now === 'number'
                ? now
                : 'status' in now
                  ? now.status
                  : 307,
        verified,
      });
      if (now === 'flood') {
        flood(response);
      } else if (now === 'hang') {
        hanging.add(response);
        response.on('close', () => hanging.delete(response));
      } else if (typeof now === 'number') {
        response.writeHead(now).end(now >= 300 ? `answered ${now}` : 'ok');
      } else if ('status' in now) {
        setTimeout(() => response.writeHead(now.status).end('ok'), now.afterMs);
      } else {
        response.writeHead(307, { location: now.redirectTo }).end();
      }
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  await listen(0);
  const port = (server.address() as AddressInfo).port;
  let listening = true;
  const receiver: WebhookReceiver = {
    port,
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    accepted: () =>
      received
        .filter((each) => each.answered !== null && each.answered >= 200 && each.answered < 300)
        .map((each) => each.id),
    behave(next) {
      behaviour = next;
    },
    async down() {
      if (!listening) return;
      listening = false;
      await stop();
    },
    async up() {
      if (listening) return;
      await listen(port);
      listening = true;
    },
    floodWritten: () => floodWritten,
    secret: undefined,
    async close() {
      if (listening) await stop();
      listening = false;
    },
  };
  return receiver;
}
