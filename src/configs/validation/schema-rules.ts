/**
 * Interprets the config's JSON Schema (config-schema.ts) over the YAML syntax tree, so each
 * issue gets the source range of the node it is about. Only the keywords the config schema
 * uses are supported; a test keeps the two in step.
 *
 * Where an issue sits (docs/config.md): the value for a bad value (its key when the value is
 * empty), the key for an unknown or duplicate key, the parent mapping's key (or the item's
 * first key) for a missing required field.
 */
import { isAlias, isMap, isScalar, isSeq, type Document, type YAMLMap, type YAMLSeq } from 'yaml';
import { MAX_NESTING_DEPTH } from '../../contract/limits';
import { configJsonSchema, type JsonSchema, type JsonType } from '../config-schema';
import type { PathSegment } from '../json-pointer';
import {
  jsonTypeOf,
  keyString,
  resolveAlias,
  valueRange,
  type NodeJsonType,
  type TreeNode,
} from '../yaml-tree';
import type { IssueRange, IssueSink } from './issue-collector';

/** Aliases are followed this many times in all, so a billion-laughs document stays cheap. */
const ALIAS_BUDGET = 10_000;

const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * How an item of a top-level list (`apps`, `ab_tests`) is checked: `check(sink, item,
 * index)` reports its issues (they depend on nothing but the item and its index) to `sink`.
 */
export type ItemCheck = (
  list: string,
  index: number,
  item: TreeNode,
  check: (sink: IssueSink, item: TreeNode, index: number) => void,
) => void;

interface Walk {
  readonly document: Document;
  readonly issues: IssueSink;
  aliasesLeft: number;
  readonly checkItem?: ItemCheck;
}

/**
 * Checks the document against the schema. `checkItem` may take over the items of the
 * top-level lists (validate-edited.ts keeps their issues); only for documents without
 * aliases, as an alias ties an item to another and the alias budget is shared.
 */
export function checkSchemaRules(
  document: Document,
  issues: IssueSink,
  checkItem?: ItemCheck,
): void {
  const walk: Walk = { document, issues, aliasesLeft: ALIAS_BUDGET, checkItem };
  checkNode(walk, document.contents as TreeNode, configJsonSchema, [], undefined);
}

function resolveRef(schema: JsonSchema): JsonSchema {
  if (!schema.$ref) return schema;
  const name = schema.$ref.replace('#/$defs/', '');
  const target = configJsonSchema.$defs?.[name];
  if (!target) throw new Error(`config schema: unknown $ref ${schema.$ref}`);
  return target;
}

function checkNode(
  walk: Walk,
  rawNode: TreeNode,
  rawSchema: JsonSchema,
  path: PathSegment[],
  keyRange: IssueRange | undefined,
): void {
  // The walk follows the schema, which has no cycle; the bound holds whatever it becomes.
  if (path.length > MAX_NESTING_DEPTH) return;
  const schema = resolveRef(rawSchema);
  if (isAlias(rawNode) && walk.aliasesLeft-- <= 0) return;
  const node = resolveAlias(walk.document, rawNode);
  // The issue goes on the value; on its key when the value has no text (`name:`).
  const range = nonEmpty(valueRange(rawNode)) ?? keyRange ?? valueRange(rawNode);
  const actual = jsonTypeOf(node);
  const name = describePlace(path);

  if (schema.type && !typeMatches(node, actual, schema.type)) {
    walk.issues.add(
      'schema.type',
      'error',
      `${name} must be ${typeWords(schema.type)}; got ${describeValue(node, actual)}`,
      path,
      range,
    );
    return;
  }
  if (schema.enum && !(isScalar(node) && schema.enum.some((allowed) => allowed === node.value))) {
    walk.issues.add(
      'schema.enum',
      'error',
      `${name} must be one of ${schema.enum.join(', ')}; got ${describeValue(node, actual)}`,
      path,
      range,
    );
    return;
  }
  if (actual === 'string')
    checkString(walk, String((node as { value: unknown }).value), schema, path, range);
  if (actual === 'number')
    checkNumber(walk, Number((node as { value: unknown }).value), schema, path, range);
  if (isMap(node)) checkMap(walk, node, schema, path, keyRange);
  if (isSeq(node)) checkSeq(walk, node, schema, path, keyRange ?? range);
}

function checkString(
  walk: Walk,
  value: string,
  schema: JsonSchema,
  path: PathSegment[],
  range: IssueRange | undefined,
): void {
  const name = describePlace(path);
  // JSON Schema counts lengths in code points, not UTF-16 units.
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) {
    const message =
      schema.minLength === 1
        ? `${name} must not be empty`
        : `${name} must be at least ${schema.minLength} characters; got ${length}`;
    walk.issues.add('schema.pattern', 'error', message, path, range);
  } else if (schema.maxLength !== undefined && length > schema.maxLength) {
    walk.issues.add(
      'schema.pattern',
      'error',
      `${name} must be at most ${schema.maxLength} characters; got ${length}`,
      path,
      range,
    );
  } else if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) {
    walk.issues.add(
      'schema.pattern',
      'error',
      `${name} "${value}" does not match ${schema.pattern}`,
      path,
      range,
    );
  } else if (
    schema.format === 'date-time' &&
    !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value)))
  ) {
    walk.issues.add(
      'schema.pattern',
      'error',
      `${name} must be an ISO 8601 date-time such as 2026-11-22T10:00:00.000Z; got "${value}"`,
      path,
      range,
    );
  }
}

function checkNumber(
  walk: Walk,
  value: number,
  schema: JsonSchema,
  path: PathSegment[],
  range: IssueRange | undefined,
): void {
  const below = schema.minimum !== undefined && value < schema.minimum;
  const above = schema.maximum !== undefined && value > schema.maximum;
  if (below || above) {
    walk.issues.add(
      'schema.range',
      'error',
      `${describePlace(path)} must be between ${schema.minimum ?? '-∞'} and ${schema.maximum ?? '∞'}; got ${value}`,
      path,
      range,
    );
  }
}

function checkMap(
  walk: Walk,
  map: YAMLMap,
  schema: JsonSchema,
  path: PathSegment[],
  keyRange: IssueRange | undefined,
): void {
  const seen = new Set<string>();
  for (const pair of map.items) {
    const key = keyString(pair);
    const keyPath = [...path, key];
    const thisKeyRange = valueRange(pair.key);
    if (seen.has(key)) {
      walk.issues.add(
        'yaml.duplicate_key',
        'error',
        `The key "${key}" appears twice in this mapping`,
        keyPath,
        thisKeyRange,
      );
      continue;
    }
    seen.add(key);
    if (schema.propertyNames?.pattern && !new RegExp(schema.propertyNames.pattern, 'u').test(key)) {
      walk.issues.add(
        'schema.pattern',
        'error',
        `The key "${key}" in ${describePlace(path)} does not match ${schema.propertyNames.pattern}`,
        keyPath,
        thisKeyRange,
      );
    }
    const propertySchema =
      schema.properties?.[key] ??
      (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined);
    if (propertySchema) {
      checkNode(walk, pair.value as TreeNode, propertySchema, keyPath, thisKeyRange);
    } else if (schema.additionalProperties === false) {
      const known = Object.keys(schema.properties ?? {}).join(', ');
      walk.issues.add(
        'schema.unknown_key',
        'warning',
        `Unknown key "${key}" in ${describePlace(path)}; known keys: ${known}`,
        keyPath,
        thisKeyRange,
      );
    }
  }
  const missing = (schema.required ?? []).filter((key) => !seen.has(key));
  if (missing.length > 0) {
    // The parent's key, else the item's first key, else the mapping itself (`- {}`).
    const range = keyRange ?? valueRange(map.items[0]?.key) ?? valueRange(map);
    for (const key of missing) {
      walk.issues.add(
        'schema.required',
        'error',
        `${describePlace(path)} is missing the required field "${key}"`,
        [...path, key],
        range,
      );
    }
  }
}

function checkSeq(
  walk: Walk,
  seq: YAMLSeq,
  schema: JsonSchema,
  path: PathSegment[],
  range: IssueRange | undefined,
): void {
  const count = seq.items.length;
  const tooFew = schema.minItems !== undefined && count < schema.minItems;
  const tooMany = schema.maxItems !== undefined && count > schema.maxItems;
  if (tooFew || tooMany) {
    walk.issues.add(
      schema['x-issue-code'] ?? 'schema.range',
      'error',
      `${describePlace(path)} must have ${schema.minItems ?? 0} to ${schema.maxItems ?? '∞'} items; got ${count}`,
      path,
      range,
    );
  }
  if (schema.items) {
    const itemSchema = schema.items;
    const [list] = path;
    const checkItem = path.length === 1 && typeof list === 'string' ? walk.checkItem : undefined;
    const check = (sink: IssueSink, item: TreeNode, index: number) => {
      const inner: Walk = { ...walk, issues: sink };
      checkNode(inner, item, itemSchema, [...path, index], undefined);
      walk.aliasesLeft = inner.aliasesLeft;
    };
    seq.items.forEach((item, index) => {
      if (checkItem) checkItem(list as string, index, item as TreeNode, check);
      else checkNode(walk, item as TreeNode, itemSchema, [...path, index], undefined);
    });
  }
}

function typeMatches(
  node: TreeNode,
  actual: NodeJsonType,
  expected: JsonType | JsonType[],
): boolean {
  const types = Array.isArray(expected) ? expected : [expected];
  return types.some((type) => {
    if (type === 'integer') {
      return actual === 'number' && Number.isInteger((node as { value: number }).value);
    }
    return type === actual;
  });
}

function nonEmpty(range: IssueRange | undefined): IssueRange | undefined {
  return range && range[1] > range[0] ? range : undefined;
}

const TYPE_WORDS: Record<JsonType, string> = {
  object: 'a mapping',
  array: 'a list',
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  null: 'empty',
};

function typeWords(type: JsonType | JsonType[]): string {
  const words = (Array.isArray(type) ? type : [type]).map((t) => TYPE_WORDS[t]);
  return words.length <= 1
    ? (words[0] ?? '')
    : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`;
}

/** A person's name for a place: `apps[0].name`, or "The config" for the root. */
export function describePlace(path: readonly PathSegment[]): string {
  if (path.length === 0) return 'The config';
  return path
    .map((segment, index) =>
      typeof segment === 'number' ? `[${segment}]` : index === 0 ? segment : `.${segment}`,
    )
    .join('');
}

function describeValue(node: TreeNode, actual: NodeJsonType): string {
  switch (actual) {
    case 'object':
      return 'a mapping';
    case 'array':
      return 'a list';
    case 'null':
      return 'nothing';
    case 'string':
      return JSON.stringify((node as { value: string }).value);
    case 'number':
    case 'boolean':
      return String((node as { value: unknown }).value);
    default:
      return 'a value of another kind';
  }
}
