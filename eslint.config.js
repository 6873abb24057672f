// ESLint flat config. Beyond style, it guards the architecture: imports flow
// contract -> configs -> {service, console}, and service and console never meet.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import reactHooks from 'eslint-plugin-react-hooks';
import pluginQuery from '@tanstack/eslint-plugin-query';
import globals from 'globals';

/** Layers and what each may not import. */
const boundaries = [
  {
    target: './src/contract',
    from: ['./src/configs', './src/config-cli', './src/service', './src/console'],
    message: 'The contract is the base layer: it imports no other part of src/.',
  },
  {
    target: './src/configs',
    from: ['./src/config-cli', './src/service', './src/console'],
    message: 'The config domain is shared: it may import only the contract.',
  },
  {
    target: './src/service',
    from: ['./src/console'],
    message: 'The service and the console meet only in the contract and the config domain.',
  },
  {
    target: './src/console',
    from: ['./src/service'],
    message: 'The service and the console meet only in the contract and the config domain.',
  },
  {
    target: './src/config-cli',
    from: ['./src/service', './src/console', './src/client'],
    message:
      'The config commands are a client of the service over HTTP: they import only the contract and the config domain.',
  },
  {
    target: './src/client',
    from: ['./src/configs', './src/service', './src/console'],
    message: 'The client library ships alone: it may import only the contract.',
  },
];

/**
 * Inside the console, imports flow one way: shared code -> features -> app. A feature is
 * a folder of src/console/features; each one added later gets its zone here unasked.
 */
const CONSOLE = './src/console';
const features = readdirSync(new URL('src/console/features', import.meta.url), {
  withFileTypes: true,
})
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const sharedConsoleCode = [
  'ab-test-kit',
  'api',
  'components',
  'editor',
  'hooks',
  'lib',
  'testing',
].map((folder) => `${CONSOLE}/${folder}`);
const consoleBoundaries = [
  ...features.map((feature) => ({
    target: `${CONSOLE}/features/${feature}`,
    from: `${CONSOLE}/features`,
    except: [`./${feature}`],
    message:
      'Features never import each other: move what both need to shared code (api/, components/, lib/, ab-test-kit/).',
  })),
  {
    target: sharedConsoleCode,
    from: `${CONSOLE}/features`,
    message: 'Shared code never imports a feature: only app/ (routes) does.',
  },
  {
    target: sharedConsoleCode.filter((folder) => !folder.endsWith('/testing')),
    from: `${CONSOLE}/app`,
    message: 'Shared code never imports the app: app/ sits on top of everything.',
  },
];
/** A feature's own code never reaches up into the app (its tests render the app's routes). */
const featuresBelowApp = {
  target: `${CONSOLE}/features`,
  from: `${CONSOLE}/app`,
  message: 'Features never import the app: app/ (routes, providers) imports them.',
};

/**
 * The service's domain (src/service/domain) says what happens and what is refused (Refused);
 * HTTP is the routes' and plugins' business, SQL the store's.
 */
const SERVICE = './src/service';
const serviceBoundaries = [
  {
    target: `${SERVICE}/domain`,
    from: [`${SERVICE}/http-problem.ts`, `${SERVICE}/routes`, `${SERVICE}/plugins`],
    message:
      'The domain knows nothing of HTTP: throw Refused (plugins/refusal-problems.ts answers it).',
  },
];
/** Database drivers: only src/service/store/ talks to the database. */
const databaseDrivers = ['better-sqlite3', 'pg'].map((name) => ({
  name,
  message: 'Only src/service/store/ imports a database driver: go through the Store.',
}));

/**
 * The contract's schemas are zod/mini (src/contract/zod.ts), which the bundler can trim to
 * what is used; classic zod carries everything on every schema, and one import of it in the
 * console would put it back on the first page (docs/benchmarks.md).
 */
const classicZod = {
  name: 'zod',
  message:
    "Use z from src/contract/zod.ts (zod/mini): classic zod weighs on the console's first page.",
};

export default tseslint.config(
  {
    ignores: [
      'node_modules',
      'dist',
      'build',
      'data',
      'coverage',
      'test-results',
      'playwright-report',
      'bench/results.json',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.strict,
  ...tseslint.configs.stylistic,
  {
    languageOptions: {
      ecmaVersion: 2023,
      sourceType: 'module',
      globals: { ...globals.node, ...globals.browser },
    },
    plugins: { 'import-x': importX },
    settings: {
      'import-x/resolver-next': [createTypeScriptImportResolver({ alwaysTryTypes: true })],
    },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      'import-x/no-restricted-paths': [
        'error',
        { zones: [...boundaries, ...consoleBoundaries, featuresBelowApp, ...serviceBoundaries] },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { paths: [classicZod] }] },
  },
  {
    files: ['src/service/**/*.ts'],
    ignores: [
      'src/service/store/**',
      // Tests may open the database themselves, to see what was written or to break it.
      'src/service/**/*.test.ts',
      // Test helpers that run a database of their own: a PostgreSQL cluster, a crashed SQLite.
      'src/service/testing/postgres-cluster.ts',
      'src/service/testing/crash-harness.ts',
    ],
    rules: { 'no-restricted-imports': ['error', { paths: [classicZod, ...databaseDrivers] }] },
  },
  {
    files: ['src/service/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [classicZod, ...databaseDrivers],
          patterns: [
            {
              group: ['fastify', 'fastify/*', '@fastify/*'],
              message: 'The domain knows nothing of HTTP: routes/ and plugins/ use Fastify.',
            },
          ],
        },
      ],
    },
  },
  {
    // The client library's tests may start the real service (client.integration.test.ts).
    files: ['src/client/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...boundaries.filter((zone) => zone.target !== './src/client'),
            ...consoleBoundaries,
            featuresBelowApp,
          ],
        },
      ],
    },
  },
  {
    // The config commands' tests run them against the real service (service/testing/config-cli.ts).
    files: ['src/config-cli/**/*.test.ts'],
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...boundaries.filter((zone) => zone.target !== './src/config-cli'),
            ...consoleBoundaries,
            featuresBelowApp,
          ],
        },
      ],
    },
  },
  {
    // A feature's tests render the app's routes, to reach its pages as a person does.
    files: ['src/console/features/**/*.test.{ts,tsx}'],
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: [...boundaries, ...consoleBoundaries] }],
    },
  },
  {
    // The shared layers run in Node and in the browser: no Node built-ins there.
    files: ['src/contract/**', 'src/configs/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [classicZod],
          patterns: [
            { group: ['node:*', 'fs', 'path', 'crypto'], message: 'Keep this layer isomorphic.' },
          ],
        },
      ],
    },
  },
  {
    // The client library is built into one file that imports nothing (docs/client.md): from
    // the contract it takes types, and runs only the assignment module, which imports
    // nothing; no zod, no Node. Its tests and their stand-in server may use anything.
    files: ['src/client/**/*.ts'],
    ignores: ['src/client/**/*.test.ts', 'src/client/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['../contract/*', '!../contract/assignment'],
              allowTypeImports: true,
              message: 'The client takes only types from the contract (zod stays out of it).',
            },
            {
              group: ['node:*', 'fs', 'path', 'crypto', 'http', 'zod', 'zod/*'],
              message: 'The client runs in browsers and Node alike, with no dependencies.',
            },
          ],
        },
      ],
    },
  },
  {
    // The console calls each endpoint through the part of the contract that defines it, so
    // that a part's schemas load with the pages that call it: the whole table (every
    // endpoint's schemas) would land in the first page. Its types cost nothing. Tests and
    // their stand-in server may use it.
    files: ['src/console/**/*.{ts,tsx}'],
    ignores: ['src/console/**/*.test.{ts,tsx}', 'src/console/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/contract/endpoints'],
              allowTypeImports: true,
              message:
                'Import the endpoint from its part of the contract (config-endpoints.ts, …): the whole table would load with the first page.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src/console/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks, '@tanstack/query': pluginQuery },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...pluginQuery.configs['flat/recommended-strict'][0].rules,
    },
  },
  {
    // Only one module of the console may load Monaco (it is heavy and must stay on the
    // editor route).
    files: ['src/console/**/*.{ts,tsx}'],
    ignores: ['src/console/editor/monaco/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [classicZod],
          patterns: [
            {
              group: [
                'monaco-editor',
                'monaco-editor/*',
                'monaco-yaml',
                'monaco-yaml/*',
                '@monaco-editor/react',
              ],
              message: 'Only src/console/editor/monaco/ imports Monaco.',
            },
          ],
        },
      ],
    },
  },
);
