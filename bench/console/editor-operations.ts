/**
 * Editor text -> operations as the console's worker runs it (operations-handler.ts, the
 * code the worker calls), on 1,000- and 10,000-app configs. What a person does: load the
 * config (the worker reads the saved text), change one app, save; the saved text is the
 * next edit's base. The steady state is the median over several such saves; the first save
 * after loading (every item read once) is printed too.
 */
import { largeConfigText } from '../../src/configs/testing/large-config';
import {
  handleOperationsRequest,
  OperationsSession,
} from '../../src/console/editor/operations-handler';
import { judged, median, printed, round, type Figure } from '../lib/figures';

const SAVES = 15;

function timed(step: () => unknown): number {
  const start = performance.now();
  step();
  return performance.now() - start;
}

function renameApp(text: string, app: number, name: string): string {
  const edited = text.replace(new RegExp(`(- id: app-${app}\\n    name: )[^\\n]*`), `$1${name}`);
  if (edited === text) throw new Error(`app-${app} was not found`);
  return edited;
}

export interface OperationsMedians {
  readonly byApps: ReadonlyMap<number, number>;
}

export function benchEditorOperations(): { figures: Figure[]; medians: OperationsMedians } {
  const figures: Figure[] = [];
  const byApps = new Map<number, number>();
  for (const apps of [1_000, 10_000]) {
    let base = largeConfigText(apps);
    const session = new OperationsSession();
    const load = timed(() => handleOperationsRequest(session, { kind: 'prime', text: base }));
    const first = renameApp(base, 1, 'First save');
    const cold = timed(() =>
      handleOperationsRequest(session, { kind: 'diff', baseText: base, editedText: first }),
    );
    base = first;
    const samples: number[] = [];
    for (let save = 0; save < SAVES; save++) {
      const edited = renameApp(base, (save * 613) % apps, `Save ${save}`);
      const baseText = base;
      let result: unknown;
      samples.push(
        timed(
          () =>
            (result = handleOperationsRequest(session, {
              kind: 'diff',
              baseText,
              editedText: edited,
            })),
        ),
      );
      if ((result as { status?: string }).status !== 'changed')
        throw new Error('the edit gave no operation');
      base = edited;
    }
    const steady = median(samples);
    byApps.set(apps, steady);
    const label = `${apps.toLocaleString('en')} apps`;
    figures.push(
      printed(
        `editor text → operations, ${label}: reading the loaded config`,
        round(load, 1),
        'ms',
      ),
      printed(`editor text → operations, ${label}: first save`, round(cold, 1), 'ms'),
      apps === 10_000
        ? judged(`editor text → operations, ${label}: median save`, round(steady, 1), 'ms', {
            max: 100,
            text: '≤ 100 ms',
          })
        : printed(`editor text → operations, ${label}: median save`, round(steady, 1), 'ms'),
    );
  }
  return { figures, medians: { byApps } };
}
