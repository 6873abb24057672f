// monaco-yaml's language service worker (completion, hover, schema checks). Re-exported from a
// local file so Vite bundles it as a worker of its own (monaco-yaml's README, "Vite").
import 'monaco-yaml/yaml.worker.js';
