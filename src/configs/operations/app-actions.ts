/**
 * `create_app`, `update_app`, `delete_app`. Values are written as given;
 * validation judges them afterwards.
 */
import { isMap, isNode, type YAMLMap } from 'yaml';
import { isPlainObject } from '../data';
import { resolveAlias, stringValue, type TreeNode } from '../yaml-tree';
import type { ApplyContext } from './apply-context';
import { refuse } from './refusal';

type Item = Readonly<Record<string, unknown>>;

export function createApp(context: ApplyContext, item: Item): void {
  const id = requireId(item);
  const apps = context.list('apps');
  if (apps.find(id))
    throw refuse.conflict('app.id_taken', `An app with the id "${id}" already exists`);
  const index = apps.append({ ...item });
  context.touch(['apps', index]);
}

export function updateApp(context: ApplyContext, item: Item): void {
  const id = requireId(item);
  const app = context.list('apps').find(id);
  if (!app) throw refuse.notFound('app.not_found', `There is no app with the id "${id}"`);
  for (const [field, value] of Object.entries(item)) {
    if (field === 'id') continue;
    if (field === 'settings' && isPlainObject(value)) {
      updateSettings(context, app.map, app.index, value);
    } else {
      setField(context, app.map, field, value);
      context.touch(['apps', app.index, field]);
    }
  }
}

/** In `settings`, a null value removes that key; other keys are set. */
function updateSettings(
  context: ApplyContext,
  app: YAMLMap,
  appIndex: number,
  changes: Readonly<Record<string, unknown>>,
): void {
  let settings = resolveAlias(
    context.document,
    (context.pair(app, 'settings')?.value ?? null) as TreeNode,
  );
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) {
      if (isMap(settings)) {
        context.removePair(settings, key);
      }
    } else {
      if (!isMap(settings)) {
        // No settings mapping yet (or a broken one): start a fresh one.
        settings = context.createNode({}) as YAMLMap;
        setField(context, app, 'settings', settings);
      }
      setField(context, settings as YAMLMap, key, value);
    }
    context.touch(['apps', appIndex, 'settings', key]);
  }
}

export function deleteApp(context: ApplyContext, item: Item): void {
  const id = requireId(item);
  const apps = context.list('apps');
  const app = apps.find(id);
  if (!app) throw refuse.notFound('app.not_found', `There is no app with the id "${id}"`);
  const runningTest = context
    .list('ab_tests')
    .entries()
    .find(
      ({ map }) => field(context, map, 'status') === 'running' && field(context, map, 'app') === id,
    );
  if (runningTest) {
    const testId = field(context, runningTest.map, 'id') ?? `#${runningTest.index}`;
    throw refuse.notAllowed(
      'app.in_running_test',
      `The app "${id}" cannot be deleted while the A/B test "${testId}" is running on it`,
    );
  }
  apps.remove(app);
  context.touch(['apps', app.index]);
}

/** Sets a key of a mapping, keeping the existing pair (and its comments) when there is one. */
export function setField(context: ApplyContext, map: YAMLMap, key: string, value: unknown): void {
  context.setPair(map, key, isNode(value) ? value : context.createNode(value));
}

/** The string value of a mapping's field, if it is a string. */
export function field(context: ApplyContext, map: YAMLMap, key: string): string | undefined {
  return stringValue(
    resolveAlias(context.document, (context.pair(map, key)?.value ?? null) as TreeNode),
  );
}

export function requireId(item: Item): string {
  if (typeof item.id !== 'string') throw refuse.badItem('the item needs a string "id"');
  return item.id;
}
