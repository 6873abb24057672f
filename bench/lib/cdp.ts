/**
 * A bare Chrome DevTools Protocol client over the browser's WebSocket, with flat sessions.
 * Playwright's own CDP sessions drop the events of the sessions they auto-attach (workers),
 * so what a page's dedicated workers fetch is read through this one.
 */
type Listener = (params: Record<string, unknown>, sessionId: string) => void;

interface Message {
  readonly id?: number;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: unknown;
  readonly error?: { message: string };
  readonly sessionId?: string;
}

export class CdpClient {
  private lastId = 0;
  private readonly pending = new Map<
    number,
    { method: string; resolve: (result: unknown) => void; reject: (error: Error) => void }
  >();
  private readonly listeners = new Map<string, Set<Listener>>();

  private constructor(private readonly socket: WebSocket) {
    socket.addEventListener('message', (event: MessageEvent) => {
      const message = JSON.parse(String(event.data)) as Message;
      if (message.id !== undefined) {
        const waiting = this.pending.get(message.id);
        this.pending.delete(message.id);
        if (message.error)
          waiting?.reject(new Error(`${waiting?.method}: ${message.error.message}`));
        else waiting?.resolve(message.result);
      } else if (message.method) {
        for (const listener of this.listeners.get(message.method) ?? []) {
          listener(message.params ?? {}, message.sessionId ?? '');
        }
      }
    });
  }

  /** Connects to the browser whose DevTools answer on `http://127.0.0.1:<port>`. */
  static async connect(port: number): Promise<CdpClient> {
    const version = (await (await fetch(`http://127.0.0.1:${port}/json/version`)).json()) as {
      webSocketDebuggerUrl: string;
    };
    // Node 20 has WebSocket behind a flag; package.json's bench script passes it.
    if (typeof WebSocket === 'undefined') throw new Error('run with node --experimental-websocket');
    const socket = new WebSocket(version.webSocketDebuggerUrl);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve(), { once: true });
      socket.addEventListener('error', () => reject(new Error('no DevTools WebSocket')), {
        once: true,
      });
    });
    return new CdpClient(socket);
  }

  send<T = unknown>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.lastId;
    this.socket.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { method, resolve: resolve as (result: unknown) => void, reject });
    });
  }

  on(method: string, listener: Listener): void {
    const set = this.listeners.get(method) ?? new Set<Listener>();
    set.add(listener);
    this.listeners.set(method, set);
  }

  close(): void {
    this.socket.close();
  }
}
