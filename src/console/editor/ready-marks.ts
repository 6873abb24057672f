/**
 * The editor page's way to ready as performance marks, so that the bench can say where the
 * time goes (docs/benchmarks.md). A mark is a timestamp in the page's own timeline: cheap.
 */
export const EDITOR_MARKS = {
  /** Monaco's chunk has run: the editor core, YAML and the workers' factory are set up. */
  monacoSetUp: 'provisioning:monaco-set-up',
  /** The editor exists with the config's text in its model. */
  editorCreated: 'provisioning:editor-created',
  /** The server's report is placed as markers. */
  serverMarkers: 'provisioning:server-markers',
  /** A worker was started; the mark's name ends with the worker's name. */
  workerStarted: 'provisioning:worker-started:',
} as const;

export function markEditorStep(name: string): void {
  // Some test DOMs have no User Timing.
  if (typeof performance.mark === 'function') performance.mark(name);
}
