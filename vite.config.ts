import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import ts from 'typescript';

/** Packages only the editor route loads (Monaco, monaco-yaml and what they bring). */
const EDITOR_PACKAGES =
  /node_modules[\\/](monaco-editor|monaco-yaml|@monaco-editor[\\/][^\\/]+|monaco-[a-z-]+|vscode-[a-z-]+)[\\/]/;

/**
 * Keeps dist/ small: a chunk that is (nearly) all third-party code (React, Monaco, the
 * Monaco workers) ships without its source map, which would be several times its size and
 * tells nothing about this project's code. Chunks of our own code keep theirs, without the
 * third-party sources' text (their lines still map to the package's file by name).
 */
function ownSourceMapsOnly(): Plugin {
  return {
    name: 'own-source-maps-only',
    apply: 'build',
    generateBundle(_options, bundle) {
      for (const output of Object.values(bundle)) {
        if (output.type !== 'chunk') continue;
        let total = 0;
        let own = 0;
        for (const [id, module] of Object.entries(output.modules)) {
          total += module.renderedLength;
          if (!id.includes('node_modules')) own += module.renderedLength;
        }
        const mapName = `${output.fileName}.map`;
        if (total === 0 || own / total >= 0.05) {
          withoutThirdPartySources(bundle[mapName]);
          continue;
        }
        Reflect.deleteProperty(bundle, mapName);
        output.map = null;
        output.code = output.code.replace(/\n\/\/# sourceMappingURL=\S+\s*$/, '\n');
      }
    },
  };
}

/**
 * The contract's descriptions (and endpoints' summaries) are for the OpenAPI document, which
 * the service makes: in the console's build each one becomes '' (keeping its lines), so the
 * first page does not carry the API's prose. Error messages (checks) stay: forms show them.
 */
function contractDescriptionsOut(): Plugin {
  const contractDir = fileURLToPath(new URL('./src/contract/', import.meta.url));
  return {
    name: 'contract-descriptions-out',
    apply: 'build',
    transform(code, id) {
      if (!id.startsWith(contractDir) || !id.endsWith('.ts') || id.endsWith('.test.ts')) return;
      const source = ts.createSourceFile(id, code, ts.ScriptTarget.Latest, true);
      const ranges: { start: number; end: number }[] = [];
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isIdentifier(node.expression) &&
          node.expression.text === 'described' &&
          node.arguments[1]
        ) {
          ranges.push({ start: node.arguments[1].getStart(source), end: node.arguments[1].end });
        }
        if (
          ts.isPropertyAssignment(node) &&
          ts.isIdentifier(node.name) &&
          node.name.text === 'description' &&
          ts.isObjectLiteralExpression(node.parent) &&
          ts.isCallExpression(node.parent.parent) &&
          ts.isPropertyAccessExpression(node.parent.parent.expression) &&
          node.parent.parent.expression.name.text === 'register'
        ) {
          ranges.push({ start: node.initializer.getStart(source), end: node.initializer.end });
        }
        // An endpoint's summary and description: the OpenAPI document's words alone.
        if (
          ts.isPropertyAssignment(node) &&
          ts.isIdentifier(node.name) &&
          (node.name.text === 'summary' || node.name.text === 'description') &&
          ts.isObjectLiteralExpression(node.parent) &&
          ts.isCallExpression(node.parent.parent) &&
          ts.isIdentifier(node.parent.parent.expression) &&
          node.parent.parent.expression.text === 'endpoint'
        ) {
          ranges.push({ start: node.initializer.getStart(source), end: node.initializer.end });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
      if (ranges.length === 0) return;
      let out = code;
      for (const { start, end } of ranges.sort((a, b) => b.start - a.start)) {
        const lines = code.slice(start, end).split('\n').length - 1;
        out = `${out.slice(0, start)}''${'\n'.repeat(lines)}${out.slice(end)}`;
      }
      return { code: out, map: null };
    },
  };
}

/** A source map asset with the text of node_modules' sources left out. */
function withoutThirdPartySources(asset: unknown): void {
  if (typeof asset !== 'object' || asset === null || !('source' in asset)) return;
  const { source } = asset as { source: unknown };
  if (typeof source !== 'string') return;
  const map = JSON.parse(source) as { sources?: string[]; sourcesContent?: (string | null)[] };
  if (!map.sources || !map.sourcesContent) return;
  map.sourcesContent = map.sourcesContent.map((content, index) =>
    map.sources?.[index]?.includes('node_modules') ? null : content,
  );
  (asset as { source: string }).source = JSON.stringify(map);
}

// The console is a static SPA built into dist/; the service serves it.
export default defineConfig({
  plugins: [react(), ownSourceMapsOnly(), contractDescriptionsOut()],
  resolve: {
    alias: [
      {
        // monaco-yaml's formatter, which the console turns off (prettier-stub.ts).
        find: /^prettier\/(standalone|plugins\/yaml|plugins\/estree)$/,
        replacement: fileURLToPath(
          new URL('./src/console/editor/monaco/prettier-stub.ts', import.meta.url),
        ),
      },
    ],
  },
  build: {
    outDir: 'dist',
    sourcemap: true,
    rolldownOptions: {
      output: {
        // Libraries change less often than the app: separate chunks stay cached across
        // releases and load in parallel. Only what the first page needs ($initial) goes in
        // them: Monaco and the editor's libraries stay in the editor route's own chunks.
        codeSplitting: {
          groups: [
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              tags: ['$initial'],
            },
            // Vite's preload helper too: else it lands in the Monaco chunk, whose lazy
            // imports use it, and the first page would load Monaco to get it.
            {
              name: 'vendor',
              test: /node_modules[\\/]|vite[\\/]preload-helper/,
              tags: ['$initial'],
            },
            { name: 'monaco', test: EDITOR_PACKAGES },
          ],
        },
      },
    },
  },
  // Monaco's workers and ours are module workers bundled from this project (no CDN, no
  // blob: or eval), which the service's Content-Security-Policy allows.
  worker: { format: 'es', plugins: () => [ownSourceMapsOnly()] },
  optimizeDeps: {
    // The dev server discovers these late (the editor route is lazy) and would reload the
    // page once on a cold cache.
    include: [
      'monaco-editor/esm/vs/editor/edcore.main.js',
      'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js',
      'monaco-editor/esm/vs/editor/editor.worker.js',
      'monaco-yaml',
      'monaco-yaml/yaml.worker.js',
      '@monaco-editor/react',
    ],
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
          exclude: ['src/console/**', 'src/**/*.postgres.test.ts'],
          environment: 'node',
        },
      },
      {
        // The API suite again on PostgreSQL (a throwaway cluster for the run), and the tests
        // that only make sense there (several instances on one database).
        extends: true,
        test: {
          name: 'postgres',
          include: [
            'src/service/api-tests/**/*.test.ts',
            'src/service/reliability-tests/config-model.test.ts',
            'src/service/scale-out/**/*.test.ts',
            'src/service/store/unit-of-work.test.ts',
            'src/service/store/configs/stored-text.test.ts',
            'src/service/retention/pruner.test.ts',
            'src/service/store/webhook-deletion.test.ts',
            'src/service/store/stream-stamp.test.ts',
            'src/**/*.postgres.test.ts',
          ],
          environment: 'node',
          env: { TEST_STORE: 'postgres' },
          globalSetup: ['src/service/testing/postgres-global-setup.ts'],
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
