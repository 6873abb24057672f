/**
 * A simple model of an account's configs for the model-based test: which configs exist,
 * which is live, and for each its apps and A/B tests (id, app, status). It predicts the
 * status of every request from the rules of docs/config.md and docs/api.md. Test-only.
 */
import type { LifecycleAction } from '../../contract/operations';

export type TestStatus = 'draft' | 'running' | 'ended' | 'promoted';

export interface ConfigData {
  readonly apps: readonly string[];
  readonly tests: ReadonlyMap<string, { readonly app: string; readonly status: TestStatus }>;
}

export interface ConfigModel {
  liveId: string;
  /** Published versions, oldest first, with their data. */
  readonly published: Map<string, ConfigData>;
  /** Open drafts, oldest first. */
  readonly drafts: Map<string, ConfigData>;
}

/** A prediction: the status, and the data the target config would hold after it. */
export type Outcome = { status: 200; data: ConfigData } | { status: 409 | 422 };

const ALLOWED_FROM: Readonly<Record<LifecycleAction, readonly TestStatus[]>> = {
  update_ab_test: ['draft', 'running'],
  start_ab_test: ['draft'],
  end_ab_test: ['running'],
  promote_ab_test: ['running', 'ended'],
  delete_ab_test: ['draft', 'ended', 'promoted'],
};

const AFTER: Readonly<Record<LifecycleAction, TestStatus | null>> = {
  update_ab_test: null,
  start_ab_test: 'running',
  end_ab_test: 'ended',
  promote_ab_test: 'promoted',
  delete_ab_test: null,
};

/** The only validation error the model's configs can have: a test on an app not there. */
export function isValid(data: ConfigData): boolean {
  return [...data.tests.values()].every((test) => data.apps.includes(test.app));
}

export function createApp(data: ConfigData, id: string): Outcome {
  if (data.apps.includes(id)) return { status: 409 };
  return { status: 200, data: { ...data, apps: [...data.apps, id] } };
}

export function deleteApp(data: ConfigData, id: string): Outcome {
  if (!data.apps.includes(id)) return { status: 422 };
  const running = [...data.tests.values()].some((t) => t.app === id && t.status === 'running');
  if (running) return { status: 409 };
  return { status: 200, data: { ...data, apps: data.apps.filter((app) => app !== id) } };
}

export function createTest(data: ConfigData, id: string, app: string): Outcome {
  if (data.tests.has(id)) return { status: 409 };
  const tests = new Map(data.tests);
  tests.set(id, { app, status: 'draft' });
  return { status: 200, data: { ...data, tests } };
}

/** A lifecycle step; its result is published, so an invalid result is refused (409). */
export function lifecycle(
  data: ConfigData,
  action: LifecycleAction,
  id: string,
  variant: string,
): Outcome {
  const test = data.tests.get(id);
  if (!test) return { status: 422 };
  if (!ALLOWED_FROM[action].includes(test.status)) return { status: 409 };
  if (action === 'promote_ab_test') {
    if (variant !== 'a' && variant !== 'b') return { status: 422 };
    if (!data.apps.includes(test.app)) return { status: 422 };
  }
  const tests = new Map(data.tests);
  if (action === 'delete_ab_test') tests.delete(id);
  const next = AFTER[action];
  if (next) tests.set(id, { ...test, status: next });
  const result = { ...data, tests };
  return isValid(result) ? { status: 200, data: result } : { status: 409 };
}

/** The model's view of a config's YAML data, to compare with the service's. */
export function dataOfYaml(parsed: {
  apps?: Record<string, unknown>[];
  ab_tests?: Record<string, unknown>[];
}): ConfigData {
  return {
    apps: (parsed.apps ?? []).map((app) => String(app.id)),
    tests: new Map(
      (parsed.ab_tests ?? []).map((test) => [
        String(test.id),
        { app: String(test.app), status: test.status as TestStatus },
      ]),
    ),
  };
}
