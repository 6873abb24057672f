/**
 * The pull-request workflow of docs/config-as-code.md, and its push step that reads JSON, run
 * as CI runs them: their YAML read from the doc, each `provisioning config` step run by bash
 * in a checkout, `provisioning` being `node bin/provisioning.js`, against the real service on
 * 127.0.0.1, with the keys the workflow takes from the CI's secrets.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SHOP_YAML, ok } from '../service/testing/api';
import { listeningTestService, type ListeningService } from '../service/testing/config-cli';
import { BIN } from '../service/testing/service-process';

interface Step {
  readonly name?: string;
  readonly run?: string;
}
interface Job {
  readonly env?: Record<string, string>;
  readonly steps: readonly Step[];
}
interface Workflow {
  readonly env?: Record<string, string>;
  readonly jobs: Record<string, Job>;
}

const doc = () => readFileSync(join(import.meta.dirname, '../../docs/config-as-code.md'), 'utf8');

/** The workflow exactly as the doc shows it. */
function documentedWorkflow(): Workflow {
  const block = /```yaml\n(name: config\n[\s\S]*?)```/.exec(doc())?.[1];
  if (!block) throw new Error('docs/config-as-code.md has no workflow');
  return parse(block) as Workflow;
}

/** The doc's push step that reads the push's JSON (it replaces the workflow's). */
function documentedJsonPushStep(): Step {
  const block = /```yaml\n(- name: Push and publish\n[\s\S]*?)```/.exec(doc())?.[1];
  if (!block) throw new Error('docs/config-as-code.md has no push step reading JSON');
  const [step] = parse(block) as Step[];
  return step ?? {};
}

const root = mkdtempSync(join(tmpdir(), 'config-ci-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
// `provisioning` on the PATH, as `npm install --global` of the repository makes it.
const binDir = join(root, 'bin');
mkdirSync(binDir);
writeFileSync(
  join(binDir, 'provisioning'),
  `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`,
);
chmodSync(join(binDir, 'provisioning'), 0o755);

let served: ListeningService;
let checkout: string;
let expressions: Record<string, string>;

beforeEach(async () => {
  served = await listeningTestService({ initialYaml: SHOP_YAML });
  checkout = mkdtempSync(join(root, 'checkout-'));
  mkdirSync(join(checkout, 'config'));
  expressions = {
    'vars.PROVISIONING_URL': served.url,
    'secrets.PROVISIONING_READ_KEY': await served.service.keyFor('viewer'),
    'secrets.PROVISIONING_PUBLISH_KEY': served.service.adminKey,
    'github.event.head_commit.message': 'Dark theme for checkout\n\nAsked for by design.',
  };
});
afterEach(async () => {
  await served.service.close();
});

/** `${{ … }}` as GitHub Actions fills it in. */
function filled(value: string): string {
  return value.replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, (_, name: string) => {
    const known = expressions[name];
    if (known === undefined) throw new Error(`the test does not know ${name}`);
    return known;
  });
}

interface StepRun {
  readonly name: string | undefined;
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runStep(step: Step, env: Record<string, string>): Promise<StepRun> {
  // GitHub runs `run:` with `bash -e {0}` in the checkout.
  const child = spawn('bash', ['-e', '-c', step.run ?? ''], {
    cwd: checkout,
    env: { PATH: `${binDir}:${process.env.PATH ?? ''}`, HOME: root, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ name: step.name, code, stdout, stderr }));
  });
}

/** A job's environment, filled in. */
function jobEnv(name: string): Record<string, string> {
  const workflow = documentedWorkflow();
  const job = workflow.jobs[name];
  if (!job) throw new Error(`the workflow has no job ${name}`);
  return Object.fromEntries(
    Object.entries({ ...workflow.env, ...job.env }).map(([key, value]) => [key, filled(value)]),
  );
}

/** The job's `provisioning config` steps, one after the other, as far as they succeed. */
async function runJob(name: string): Promise<StepRun[]> {
  const job = documentedWorkflow().jobs[name];
  if (!job) throw new Error(`the workflow has no job ${name}`);
  const env = jobEnv(name);
  const runs: StepRun[] = [];
  for (const step of job.steps.filter((candidate) =>
    candidate.run?.startsWith('provisioning config'),
  )) {
    const run = await runStep(step, env);
    runs.push(run);
    if (run.code !== 0) break;
  }
  return runs;
}

const FILE = 'config/production.yaml';
const DARK = SHOP_YAML.replace('theme: light', 'theme: dark # easier at night');

describe('the documented CI workflow', () => {
  it('validates and diffs a pull request, then pushes and publishes it on merge', async () => {
    writeFileSync(join(checkout, FILE), DARK);
    expect(await runJob('check')).toEqual([
      { name: 'Validate', code: 0, stdout: '', stderr: '' },
      {
        name: 'What merging would change',
        code: 0,
        stdout: '- update_app:\n    - id: checkout\n      settings:\n        theme: dark\n',
        stderr: '',
      },
    ]);

    const [push] = await runJob('push');
    const live = await ok(served.service, served.service.adminKey, 'getLiveConfig');
    expect(live.yaml).toBe(DARK);
    expect(live.label).toBe('Dark theme for checkout');
    expect(push?.code).toBe(0);
    expect(push?.stderr).toBe('');
    expect(push?.stdout).toMatch(
      new RegExp(
        `^draft cfg_\\w+ revision 1 \\(new, from cfg_\\w+\\)\\nmerged revisions: none\\nvalid: 0 errors, 0 warnings\\npublished ${live.id} \\(live\\)\\n$`,
      ),
    );
    // Merged again with nothing new: the push changes nothing.
    const [again] = await runJob('push');
    expect(again).toEqual({
      name: 'Push and publish',
      code: 0,
      stdout: `nothing to change: ${FILE} is the text of ${live.id} at revision 1\n`,
      stderr: '',
    });
  }, 60_000);

  it('fails the pull request on an invalid file, with an annotation on its line', async () => {
    writeFileSync(join(checkout, FILE), SHOP_YAML.replace('platform: ios', 'platform: desktop'));
    expect(await runJob('check')).toEqual([
      {
        name: 'Validate',
        code: 1,
        stdout: `::error file=${FILE},line=11,col=15::schema.enum apps[1].platform must be one of web, ios, android, server; got "desktop"\n`,
        stderr: '',
      },
    ]);
  }, 60_000);

  it('fails the diff step when the service refuses the key, and the push when it is invalid', async () => {
    writeFileSync(join(checkout, FILE), SHOP_YAML.replace('platform: ios', 'platform: desktop'));
    expressions['secrets.PROVISIONING_READ_KEY'] = 'pk_revoked';
    const workflow = documentedWorkflow();
    const diff = workflow.jobs.check?.steps.find(
      (step) => step.name === 'What merging would change',
    );
    const run = await runStep(diff ?? {}, {
      PROVISIONING_URL: served.url,
      PROVISIONING_API_KEY: filled('${{ secrets.PROVISIONING_READ_KEY }}'),
    });
    // diff exits 2; `|| [ $? -eq 1 ]` then fails the step.
    expect(run).toEqual({
      name: 'What merging would change',
      code: 1,
      stdout: '',
      stderr: 'provisioning config diff: 401 api_key_invalid: The API key is malformed\n',
    });
    const [push] = await runJob('push');
    expect(push?.code).toBe(1);
    expect(push?.stdout).toContain(`${FILE}:11:15: error schema.enum`);
    expect(push?.stdout).toMatch(/not published: the draft has errors\n$/);
  }, 60_000);

  it('reads what the push did from its JSON, as the documented step does', async () => {
    const outputs = join(checkout, 'github-output');
    const step = documentedJsonPushStep();
    writeFileSync(join(checkout, FILE), DARK);
    writeFileSync(outputs, '');
    const pushed = await runStep(step, { ...jobEnv('push'), GITHUB_OUTPUT: outputs });
    const live = await ok(served.service, served.service.adminKey, 'getLiveConfig');
    expect(live.yaml).toBe(DARK);
    expect(pushed).toEqual({ name: 'Push and publish', code: 0, stdout: '', stderr: '' });
    expect(readFileSync(outputs, 'utf8')).toBe(
      `draft=${live.base_config_id}\npublished=${live.id}\n`,
    );

    writeFileSync(join(checkout, FILE), SHOP_YAML.replace('platform: ios', 'platform: desktop'));
    writeFileSync(outputs, '');
    const refused = await runStep(step, { ...jobEnv('push'), GITHUB_OUTPUT: outputs });
    const [draft] = await ok(served.service, served.service.adminKey, 'listConfigs');
    expect(draft?.kind).toBe('draft');
    expect(refused).toEqual({
      name: 'Push and publish',
      code: 1,
      stdout: '::error::publish: invalid_config: the draft has errors\n',
      stderr: '',
    });
    expect(readFileSync(outputs, 'utf8')).toBe(`draft=${draft?.id}\npublished=\n`);

    // Exit 2 prints no JSON: the step sets no output and fails with the error in its log.
    writeFileSync(outputs, '');
    const failed = await runStep(step, {
      ...jobEnv('push'),
      PROVISIONING_API_KEY: 'pk_revoked',
      GITHUB_OUTPUT: outputs,
    });
    expect(failed).toEqual({
      name: 'Push and publish',
      code: 2,
      stdout: '',
      stderr: 'provisioning config push: 401 api_key_invalid: The API key is malformed\n',
    });
    expect(readFileSync(outputs, 'utf8')).toBe('');
  }, 60_000);

  it("lists the config commands in the help, and prints one command's usage", async () => {
    const help = await runStep({ run: 'provisioning --help' }, {});
    expect(help.code).toBe(0);
    expect(help.stdout).toContain(
      '\n  provisioning config validate FILE... [--format text|json|github] [--strict]   offline:',
    );
    expect(await runStep({ run: 'provisioning config schema --help' }, {})).toEqual({
      name: undefined,
      code: 0,
      stdout: "Usage: provisioning config schema   the config's JSON Schema (offline)\n",
      stderr: '',
    });
  }, 60_000);

  it('pulls with the key from a file', async () => {
    const keyFile = join(root, 'key');
    writeFileSync(keyFile, served.service.adminKey);
    const run = await runStep(
      { run: `provisioning config pull --key-file ${keyFile} --out ${FILE}` },
      { PROVISIONING_URL: served.url },
    );
    expect(run).toEqual({ name: undefined, code: 0, stdout: '', stderr: '' });
    expect(readFileSync(join(checkout, FILE), 'utf8')).toBe(SHOP_YAML);
  }, 60_000);
});
