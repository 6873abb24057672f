// Monaco's own worker (diffs, word-based suggestions), bundled as a module worker.
import 'monaco-editor/esm/vs/editor/editor.worker.js';
