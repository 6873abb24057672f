/**
 * The layer rules of eslint.config.js, proven to bite: code that breaks the one-way flow
 * (contract -> configs -> {service, console}), brings Node into a shared layer, HTTP into the
 * service's domain or a database driver outside its store is refused; the config commands
 * (src/config-cli) reach the service only over HTTP; the console takes only types from the
 * whole contract table.
 */
import { ESLint } from 'eslint';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const eslint = new ESLint();

// Imports are checked only when they resolve: make sure the service has a module to import
// even before it exists (removed afterwards, with the folder if the test made it).
const serviceDir = 'src/service';
const serviceProbe = `${serviceDir}/architecture-probe.ts`;
let madeServiceDir = false;
beforeAll(() => {
  madeServiceDir = !existsSync(serviceDir);
  mkdirSync(serviceDir, { recursive: true });
  writeFileSync(serviceProbe, 'export const probe = 1;\n');
});
afterAll(() => {
  rmSync(madeServiceDir ? serviceDir : serviceProbe, { recursive: true, force: true });
});

async function ruleIdsFor(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).map((message) => message.ruleId ?? message.message);
}

describe('the architecture is enforced by ESLint', () => {
  it.each([
    [
      'src/contract/probe.ts',
      "import { toPointer } from '../configs/json-pointer';\nexport const probe = toPointer;\n",
    ],
    [
      'src/configs/probe.ts',
      "import { App } from '../console/app/app';\nexport const probe = App;\n",
    ],
    [
      'src/console/probe.ts',
      "import { probe as other } from '../service/architecture-probe';\nexport const probe = other;\n",
    ],
    [
      'src/service/probe.ts',
      "import { App } from '../console/app/app';\nexport const probe = App;\n",
    ],
    [
      'src/config-cli/probe.ts',
      "import { probe as other } from '../service/architecture-probe';\nexport const probe = other;\n",
    ],
    [
      'src/config-cli/probe.ts',
      "import { App } from '../console/app/app';\nexport const probe = App;\n",
    ],
  ])('%s may not import against the flow', async (filePath, code) => {
    expect(await ruleIdsFor(filePath, code)).toContain('import-x/no-restricted-paths');
  });

  it('keeps Node built-ins out of the shared layers', async () => {
    const code = "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n";
    expect(await ruleIdsFor('src/configs/probe.ts', code)).toContain('no-restricted-imports');
    expect(await ruleIdsFor('src/contract/probe.ts', code)).toContain('no-restricted-imports');
  });

  it('lets the client library take only types and the assignment module from the contract', async () => {
    const zodValue =
      "import { deliveryViewSchema } from '../contract/delivery';\nexport const probe = deliveryViewSchema;\n";
    const nodeModule =
      "import { readFileSync } from 'node:fs';\nexport const probe = readFileSync;\n";
    const configs =
      "import { toPointer } from '../configs/json-pointer';\nexport const probe = toPointer;\n";
    const allowed =
      "import type { DeliveryView } from '../contract/delivery';\nimport { assign } from '../contract/assignment';\nexport type Probe = DeliveryView;\nexport const probe = assign;\n";
    const file = 'src/client/probe.ts';
    expect(await ruleIdsFor(file, zodValue)).toContain('@typescript-eslint/no-restricted-imports');
    expect(await ruleIdsFor(file, nodeModule)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await ruleIdsFor(file, configs)).toContain('import-x/no-restricted-paths');
    expect(await ruleIdsFor(file, allowed)).toEqual([]);
  }, 30_000);

  it.each([
    ["import { HttpProblem } from '../http-problem';\nexport const probe = HttpProblem;\n"],
    [
      "import { registerEndpoint } from '../routes/register-endpoint';\nexport const probe = registerEndpoint;\n",
    ],
    [
      "import { refusalProblem } from '../plugins/refusal-problems';\nexport const probe = refusalProblem;\n",
    ],
  ])(
    'keeps HTTP out of the service domain: %s',
    async (code) => {
      expect(await ruleIdsFor('src/service/domain/probe.ts', code)).toContain(
        'import-x/no-restricted-paths',
      );
    },
    30_000,
  );

  it('keeps Fastify and the database drivers out of the service domain', async () => {
    const fastify = "import Fastify from 'fastify';\nexport const probe = Fastify;\n";
    const plugin = "import compress from '@fastify/compress';\nexport const probe = compress;\n";
    const driver = "import pg from 'pg';\nexport const probe = pg;\n";
    for (const code of [fastify, plugin, driver]) {
      expect(await ruleIdsFor('src/service/domain/probe.ts', code)).toContain(
        'no-restricted-imports',
      );
    }
  }, 30_000);

  it('lets only the store import a database driver', async () => {
    const code = "import Database from 'better-sqlite3';\nexport const probe = Database;\n";
    expect(await ruleIdsFor('src/service/delivery/probe.ts', code)).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('src/service/routes/probe.ts', code)).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('src/service/store/probe.ts', code)).toEqual([]);
  }, 30_000);

  it('lets the console import the config domain and the contract', async () => {
    const code =
      "import { toPointer } from '../configs/json-pointer';\nimport { ID_PATTERN } from '../contract/config-document';\nexport const probe = [toPointer, ID_PATTERN];\n";
    expect(await ruleIdsFor('src/console/probe.ts', code)).toEqual([]);
  }, 30_000);

  it('lets the console take only types from the whole contract table', async () => {
    const table =
      "import { contract } from '../contract/endpoints';\nexport const probe = contract;\n";
    const part =
      "import type { EndpointName } from '../contract/endpoints';\nimport { configEndpoints } from '../contract/config-endpoints';\nexport type Probe = EndpointName;\nexport const probe = configEndpoints;\n";
    expect(await ruleIdsFor('src/console/probe.ts', table)).toContain(
      '@typescript-eslint/no-restricted-imports',
    );
    expect(await ruleIdsFor('src/console/probe.ts', part)).toEqual([]);
  }, 30_000);

  it('lets the config commands import the config domain, the contract and Node', async () => {
    const code =
      "import { readFileSync } from 'node:fs';\nimport { toPointer } from '../configs/json-pointer';\nimport { ID_PATTERN } from '../contract/config-document';\nexport const probe = [readFileSync, toPointer, ID_PATTERN];\n";
    expect(await ruleIdsFor('src/config-cli/probe.ts', code)).toEqual([]);
  }, 30_000);
});
