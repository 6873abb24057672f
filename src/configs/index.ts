/**
 * The config domain: pure and isomorphic (Node and the browser). The service and the
 * console import it from here.
 */
export { ChunkedConfigReader } from './chunked-data';
export {
  readConfigContents,
  type AbTestContents,
  type AppContents,
  type ConfigContents,
  type VariantContents,
} from './config-contents';
export { configJsonSchema, type JsonSchema } from './config-schema';
export { deepEqual, isPlainObject } from './data';
export {
  diffConfigData,
  editorTextToOperations,
  type EditorOperationsResult,
} from './editor-operations';
export {
  applyEdit,
  type AppliedEdit,
  type EditableConfig,
  type EditOptions,
  type EditResult,
} from './edit';
export { isArrayIndexToken, parsePointer, toPointer, type PathSegment } from './json-pointer';
export {
  applyOperations,
  type ApplyOptions,
  type ApplyResult,
} from './operations/apply-operations';
export { EditChanges } from './operations/edit-changes';
export type { OperationRefusal, RefusalKind } from './operations/refusal';
export {
  configData,
  normalizeLineEnds,
  parseConfig,
  positionAt,
  stringifyConfig,
  YAML_PARSE_OPTIONS,
  YAML_STRINGIFY_OPTIONS,
  type ConfigData,
  type ParsedConfig,
  type SourcePosition,
} from './parse';
export {
  AB_TEST_DEFINITION_FIELDS,
  AB_TEST_LIFECYCLE_FIELDS,
  itemKey,
  planPromotion,
  type NotPromotable,
  type PromotionDifference,
  type PromotionItem,
  type PromotionPlan,
} from './promotion/promotion';
export { compareIssues } from './validation/issue-collector';
export {
  validateConfigText,
  validateParsedConfig,
  type ValidationContext,
} from './validation/validate';
