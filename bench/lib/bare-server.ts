/**
 * The baseline of `GET /auth/status`: a bare Fastify app (no plugins, no logger) whose one
 * route answers the JSON given in argv[2]. Prints its port on stderr, as the service does.
 *
 * It runs as the service runs (auth-status.ts): bundled by esbuild, with plain `node` and no
 * loader, and with source maps on as bin/provisioning.js turns them on for the service.
 */
import Fastify from 'fastify';

process.setSourceMapsEnabled(true);
const body = JSON.parse(process.argv[2] ?? '{}') as unknown;
const app = Fastify();
app.get('/api/v1/auth/status', async () => body);
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
process.stderr.write(
  `Bare Fastify: http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}\n`,
);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
