/**
 * A Server-Sent Events parser, fed text as it arrives from a `fetch` body: the client reads
 * the stream itself (no EventSource) so that it can send `Last-Event-ID`, runs the same in
 * Node and browsers, and checks what it receives. Follows the WHATWG event-stream rules:
 * lines end with CRLF, LF or CR (a chunk may end between CR and LF), `field: value` with one
 * optional space, `data` lines joined by LF, `id` kept across events, `retry` digits only,
 * comments (`:`) ignored, an event dispatched on a blank line, an unfinished one dropped.
 */

export interface SseEvent {
  /** `event:`, or `message` when absent. */
  readonly type: string;
  readonly data: string;
  /** The last `id:` seen on this stream, this event's or an earlier one's. */
  readonly id: string;
}

export interface SseHandlers {
  event(event: SseEvent): void;
  /** `retry:` asks for another reconnection delay, in milliseconds. */
  retry?(delayMs: number): void;
  /** A comment line (the server's heartbeat), without its colon. */
  comment?(text: string): void;
}

export interface SseParser {
  /** Text decoded from the stream, cut anywhere. */
  push(text: string): void;
}

/** Past this much text without an end of line or event, the stream is refused. */
export const SSE_MAX_PENDING_CHARS = 1024 * 1024;

export function createSseParser(
  handlers: SseHandlers,
  maxPendingChars = SSE_MAX_PENDING_CHARS,
): SseParser {
  let pending = '';
  let atStart = true;
  // The last chunk ended with CR: an LF opening the next one ends no line of its own.
  let skipLineFeed = false;
  let type = '';
  let data = '';
  let lastId = '';

  function dispatch(): void {
    if (data === '') {
      type = '';
      return;
    }
    const event = { type: type || 'message', data: data.slice(0, -1), id: lastId };
    type = '';
    data = '';
    handlers.event(event);
  }

  function line(text: string): void {
    if (text === '') return dispatch();
    const colon = text.indexOf(':');
    if (colon === 0) return handlers.comment?.(text.slice(1));
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') type = value;
    else if (field === 'data') data += `${value}\n`;
    else if (field === 'id' && !value.includes('\0')) lastId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) handlers.retry?.(Number(value));
  }

  return {
    push(text) {
      if (atStart && text !== '') {
        atStart = false;
        if (text.startsWith('\uFEFF')) text = text.slice(1);
      }
      if (skipLineFeed && text !== '') {
        skipLineFeed = false;
        if (text.startsWith('\n')) text = text.slice(1);
      }
      pending += text;
      let start = 0;
      // Positions of the next CR and LF, searched again only once passed, so that a long
      // chunk of many lines is scanned once.
      let cr = pending.indexOf('\r');
      let lf = pending.indexOf('\n');
      while (cr >= 0 || lf >= 0) {
        const end = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf;
        let next = end + 1;
        if (end === cr) {
          if (next === pending.length) skipLineFeed = true;
          else if (pending[next] === '\n') next += 1;
        }
        line(pending.slice(start, end));
        start = next;
        if (cr >= 0 && cr < start) cr = pending.indexOf('\r', start);
        if (lf >= 0 && lf < start) lf = pending.indexOf('\n', start);
      }
      pending = pending.slice(start);
      if (pending.length + data.length > maxPendingChars) {
        throw new Error(`event stream: more than ${maxPendingChars} characters in one event`);
      }
    },
  };
}
