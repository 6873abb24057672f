/** `GET /audit` and `GET /audit/export` (docs/api.md, Audit trail). */
import type { FastifyInstance } from 'fastify';
import type { ServerResponse } from 'node:http';
import { AUDIT_EXPORT_CONTENT_TYPE } from '../../contract/audit';
import type { AuditTrail } from '../domain/audit-trail';
import { pagedList } from '../domain/pages';
import { registerEndpoint } from './register-endpoint';

export function registerAuditRoutes(app: FastifyInstance, trail: AuditTrail): void {
  const pages = pagedList('audit', 1);
  registerEndpoint(app, 'getAudit', async ({ principal, query }) => {
    const page = await trail.list(principal, query, pages.request(query));
    return { body: page.items, nextCursor: pages.cursorAfter(page) };
  });

  registerEndpoint(app, 'exportAudit', async ({ principal, query, reply, request }) => {
    const records = trail.export(principal, query);
    // The first batch is read before the answer starts: a database that does not answer
    // is still a 503 problem, not a stream cut short.
    const first = await records.next();
    reply.hijack();
    const out = reply.raw;
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) out.setHeader(name, value);
    }
    out.writeHead(200, {
      'content-type': AUDIT_EXPORT_CONTENT_TYPE,
      'content-disposition': 'attachment; filename="audit.ndjson"',
      'cache-control': 'no-store',
    });
    try {
      for (let next = first; !next.done; next = await records.next()) {
        if (out.destroyed) break;
        // Waits while the client reads slower than the trail is read.
        if (!out.write(`${JSON.stringify(next.value)}\n`)) await drainedOrClosed(out);
      }
      out.end();
    } catch (error) {
      request.log.error({ err: error }, 'the audit export stopped half way');
      out.destroy(error as Error);
    }
    return { streamed: true };
  });
}

/** Until the client has read what was written, or has gone. */
function drainedOrClosed(out: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
  });
}
