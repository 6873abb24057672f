/**
 * The baseline of `GET /delivery/{key}/apps/{app}` with If-None-Match: a bare Fastify app
 * (no plugins, no logger) whose one route answers 304 to the ETag given in argv[2], and the
 * view (argv[3]) otherwise. Prints its port on stderr, as the service does; runs bundled
 * with plain `node`, as bare-server.ts does.
 */
import Fastify from 'fastify';

process.setSourceMapsEnabled(true);
const etag = process.argv[2] ?? '""';
const body = process.argv[3] ?? '{}';
const app = Fastify();
app.get('/api/v1/delivery/:client_key/apps/:app_id', async (request, reply) => {
  reply.header('etag', etag);
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stderr.write(
  `Bare Fastify: http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
