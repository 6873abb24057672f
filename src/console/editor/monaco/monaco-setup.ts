/**
 * Monaco, once per page: the editor core from npm (no CDN: `loader.config({ monaco })`),
 * YAML highlighting, module workers bundled from this project (the editor worker and
 * monaco-yaml's, nothing for languages the console never edits), and monaco-yaml fed the
 * config's JSON Schema.
 *
 * The core is `edcore.main.js` rather than `monaco-editor`'s main entry, which would also
 * register the CSS, HTML, JSON and TypeScript language services. That entry also teaches
 * `editor.createWebWorker` the `{ moduleId, label, createData }` form that monaco-yaml's
 * worker manager uses; `installWorkerFactory` does the same here.
 */
import * as monaco from 'monaco-editor/esm/vs/editor/edcore.main.js';
import 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';
import { loader } from '@monaco-editor/react';
import { configureMonacoYaml, type JSONSchema, type MonacoYaml } from 'monaco-yaml';
import { EDITOR_MARKS, markEditorStep } from '../ready-marks';

export type Monaco = typeof monaco;

declare global {
  interface Window {
    /** The page's Monaco namespace, for browser tests (docs/console.md): read-only use. */
    __provisioningMonaco?: Monaco;
  }
}

/** The label monaco-yaml's worker manager gives its worker. */
const YAML_WORKER_LABEL = 'yaml';
/** The schema's id for monaco-yaml; it is never fetched (enableSchemaRequest is off). */
const SCHEMA_URI = 'https://provisioning.invalid/config.schema.json';

function newWorker(label: string): Worker {
  markEditorStep(`${EDITOR_MARKS.workerStarted}${label}`);
  return label === YAML_WORKER_LABEL
    ? new Worker(new URL('./yaml.worker.ts', import.meta.url), { type: 'module', name: label })
    : new Worker(new URL('./editor.worker.ts', import.meta.url), { type: 'module', name: label });
}

interface ForeignWorkerOptions {
  moduleId?: string;
  label?: string;
  createData?: unknown;
  host?: unknown;
  keepIdleModels?: boolean;
  worker?: Worker | Promise<Worker>;
}

function installWorkerFactory(): void {
  globalThis.MonacoEnvironment = {
    getWorker: (_moduleId: string, label: string) => newWorker(label),
  };
  const createWebWorker = monaco.editor.createWebWorker.bind(monaco.editor);
  // As monaco-editor's main entry does: a worker named by label gets the create data first.
  monaco.editor.createWebWorker = ((options: ForeignWorkerOptions) => {
    if (options.worker !== undefined) {
      return createWebWorker({
        worker: options.worker,
        host: options.host,
        keepIdleModels: options.keepIdleModels,
      });
    }
    const worker = newWorker(options.label ?? 'monaco-editor-worker');
    worker.postMessage('ignore');
    worker.postMessage(options.createData);
    return createWebWorker({
      worker,
      host: options.host,
      keepIdleModels: options.keepIdleModels,
    });
  }) as typeof monaco.editor.createWebWorker;
}

/**
 * Monaco's own themes with the colours that fall short of WCAG AA (4.5:1) made darker
 * (light) or lighter (dark), also on the diff editor's added and removed lines and the
 * dimmed number of an empty last line (Monaco's default is the line numbers at 40%).
 */
function defineThemes(): void {
  monaco.editor.defineTheme('provisioning-light', {
    base: 'vs',
    inherit: true,
    rules: [
      { token: 'comment', foreground: '006b00' },
      { token: 'type', foreground: '005f5f' },
      { token: 'number', foreground: '066b45' },
    ],
    colors: {
      'editorLineNumber.dimmedForeground': '#4a7a88',
      'diffEditor.insertedLineBackground': '#9bb9551a',
      'diffEditor.insertedTextBackground': '#9ccc2c33',
      'diffEditor.removedLineBackground': '#ff00000f',
      'diffEditor.removedTextBackground': '#ff000024',
    },
  });
  monaco.editor.defineTheme('provisioning-dark', {
    base: 'vs-dark',
    inherit: true,
    rules: [{ token: 'comment', foreground: '7fae6a' }],
    colors: {
      // Monaco's line numbers here are barely above 4.5:1: the dimmed one cannot be dimmer.
      'editorLineNumber.dimmedForeground': '#858585',
      'diffEditor.insertedLineBackground': '#9bb95514',
      'diffEditor.insertedTextBackground': '#9ccc2c26',
      'diffEditor.removedLineBackground': '#ff00000f',
      'diffEditor.removedTextBackground': '#ff00001f',
    },
  });
}

/** The Monaco theme for the system's colour scheme. */
export function themeOf(dark: boolean): string {
  return dark ? 'provisioning-dark' : 'provisioning-light';
}

/**
 * Monaco cancels its pending requests (the word highlight under the cursor, ...) when an
 * editor's model is swapped or disposed, and some reject with nothing left to catch them. A
 * cancellation is expected (Monaco's own error handler ignores it): keep it out of the
 * page's unhandled errors, and let every other rejection through.
 */
function ignoreMonacoCancellations(): void {
  window.addEventListener('unhandledrejection', (event: PromiseRejectionEvent) => {
    const reason: unknown = event.reason;
    if (reason instanceof Error && reason.name === 'Canceled' && reason.message === 'Canceled')
      event.preventDefault();
  });
}

installWorkerFactory();
defineThemes();
ignoreMonacoCancellations();
loader.config({ monaco });
window.__provisioningMonaco = monaco;
markEditorStep(EDITOR_MARKS.monacoSetUp);

let yaml: MonacoYaml | undefined;
let currentSchema: unknown;

/** Points monaco-yaml at `schema` for every YAML model (the console edits configs only). */
export function setConfigSchema(schema: object): void {
  if (schema === currentSchema) return;
  currentSchema = schema;
  const options = {
    enableSchemaRequest: false,
    // Formatting would rewrite the person's text; the server keeps their formatting.
    format: { enable: false },
    validate: true,
    completion: true,
    hover: true,
    yamlVersion: '1.2' as const,
    schemas: [{ uri: SCHEMA_URI, fileMatch: ['*'], schema: schema as JSONSchema }],
  };
  if (yaml) void yaml.update(options);
  else yaml = configureMonacoYaml(monaco, options);
}

export { monaco };
