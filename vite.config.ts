import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// The console is a static SPA built into dist/; the service serves it (issue 3).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across
        // releases and load in parallel.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'vendor', test: /node_modules[\\/]/ },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    // While developing the console, API calls go to a locally running service.
    proxy: { '/api': 'http://localhost:8080' },
  },
  test: {
    // Only unit and API tests: Playwright specs in e2e/ are run by Playwright.
    pool: 'threads',
    // Property and concurrency tests take seconds; on 2 busy cores the 5 s default is flaky.
    testTimeout: 60_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ['src/console/**'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'console',
          include: ['src/console/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
