/**
 * The results view a link reproduces: the engine, its options and the phase live in the
 * page's search params (`?tab=results&engine=frequentist&sequential=true&correction=holm`).
 */
import {
  CORRECTIONS,
  ENGINES,
  type Correction,
  type Engine,
  type ResultsQuery,
} from '../../../../contract/experiments';

export interface ResultsView {
  readonly engine: Engine;
  /** Frequentist only. */
  readonly sequential: boolean;
  readonly correction: Correction;
  /** A phase number as text; undefined: the current phase. */
  readonly phase: string | undefined;
}

function oneOf<T extends string>(choices: readonly T[], value: string | null, fallback: T): T {
  return choices.find((choice) => choice === value) ?? fallback;
}

export function viewOfSearch(search: URLSearchParams): ResultsView {
  const phase = search.get('phase');
  return {
    engine: oneOf(ENGINES, search.get('engine'), 'bayesian'),
    sequential: search.get('sequential') === 'true',
    correction: oneOf(CORRECTIONS, search.get('correction'), 'none'),
    phase: phase !== null && /^[1-9][0-9]{0,5}$/.test(phase) ? phase : undefined,
  };
}

/** What the server is asked: the frequentist options only with the frequentist engine. */
export function queryOfView(view: ResultsView): ResultsQuery {
  return {
    engine: view.engine,
    ...(view.engine === 'frequentist'
      ? { sequential: view.sequential ? 'true' : 'false', correction: view.correction }
      : {}),
    ...(view.phase === undefined ? {} : { phase: view.phase }),
  };
}

/** The search params with `change` applied; the defaults are left out of the address. */
export function searchWithView(
  search: URLSearchParams,
  change: Partial<ResultsView>,
): URLSearchParams {
  const view = { ...viewOfSearch(search), ...change };
  const next = new URLSearchParams(search);
  for (const name of ['engine', 'sequential', 'correction', 'phase']) next.delete(name);
  if (view.engine !== 'bayesian') next.set('engine', view.engine);
  if (view.engine === 'frequentist') {
    if (view.sequential) next.set('sequential', 'true');
    if (view.correction !== 'none') next.set('correction', view.correction);
  }
  if (view.phase !== undefined) next.set('phase', view.phase);
  return next;
}
