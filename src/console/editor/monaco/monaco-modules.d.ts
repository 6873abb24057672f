/**
 * Types for the parts of monaco-editor 0.54 that the console imports directly: the editor
 * core without the bundled language services (edcore.main.js) and the YAML tokenizer. Their
 * API is the one editor.api.d.ts describes.
 */
declare module 'monaco-editor/esm/vs/editor/edcore.main.js' {
  export * from 'monaco-editor/esm/vs/editor/editor.api';
}

declare module 'monaco-editor/esm/vs/basic-languages/yaml/yaml.contribution.js';

declare module 'monaco-editor/esm/vs/editor/editor.worker.js';

declare module 'monaco-yaml/yaml.worker.js';
