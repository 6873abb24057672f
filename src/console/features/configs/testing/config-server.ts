/**
 * The MSW server of the configs pages' tests: started once per file, its handlers reset
 * after each test, and a test fails when a handler met a request or built an answer that
 * the contract does not allow.
 */
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { configHandlers, type ConfigHandlerOptions } from './config-handlers';
import { ConfigStore } from './config-store';

export interface SeenRequest {
  readonly method: string;
  readonly url: string;
}

export function setupConfigServer() {
  const server = setupServer();
  const seen: SeenRequest[] = [];
  const violations: unknown[] = [];
  server.events.on('request:start', ({ request }) => {
    seen.push({ method: request.method, url: request.url });
  });
  server.events.on('unhandledException', ({ error }) => {
    violations.push(error);
  });

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterEach(() => {
    server.resetHandlers();
    seen.length = 0;
    const found = violations.splice(0);
    expect(found, 'requests and answers follow the contract').toEqual([]);
  });
  afterAll(() => server.close());

  return {
    /** The requests of the current test. */
    seen,
    /** Serves `store` (a fresh one by default) for the rest of the test. */
    serve(store = new ConfigStore(), options: ConfigHandlerOptions = {}): ConfigStore {
      server.use(...configHandlers(store, options));
      return store;
    },
  };
}
