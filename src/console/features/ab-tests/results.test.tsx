import { act, configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuthStatus } from '../../../contract/auth-status';
import type {
  ExperimentResults,
  ExperimentTimeseries,
  ResultsMetric,
  ResultsQuery,
  ResultsVariant,
} from '../../../contract/experiments';
import { problemOf } from '../../../contract/problem';
import { routes } from '../../app/routes';
import { ConfigServer } from '../../testing/config-server';
import { handle, notOffered, setupContractServer } from '../../testing/msw-contract';
import { ADMIN_STATUS, connectForTest, renderRoutes } from '../../testing/test-utils';
import { REFRESH_GIVE_UP_MS } from './results/results-tab';

// The page and its Results tab are lazy chunks; a refresh is awaited by reading again.
configure({ asyncUtilTimeout: 5_000 });

const http = setupContractServer();

const LIVE = `apps:
  - id: checkout
    name: Checkout
    platform: web
    settings:
      button_size: small
ab_tests:
  - id: bigger-button
    app: checkout
    status: running
    variants:
      - id: control
        weight: 50
      - id: big
        weight: 50
        settings:
          button_size: large
    started_at: "2026-11-20T10:00:00.000Z"
`;

const VIEWER: AuthStatus = { ...ADMIN_STATUS, role: 'viewer', permissions: ['config:read'] };
const COMPUTED_AT = '2026-11-26T09:00:00.000Z';
const PHASE_1 = {
  number: 1,
  started_at: '2026-11-20T10:00:00.000Z',
  ended_at: null,
  weights: { control: 50, big: 50 },
};

function variant(id: string, change: Partial<ResultsVariant> = {}): ResultsVariant {
  return { id, units: 1000, value: 0.1, verdict: 'control', ...change };
}

function metric(
  id: string,
  name: string | null,
  big: Partial<ResultsVariant>,
  change: Partial<ResultsMetric> = {},
): ResultsMetric {
  return {
    id,
    name,
    kind: 'binomial',
    role: 'goal',
    inverse: false,
    variants: [
      variant('control'),
      variant('big', { verdict: 'inconclusive', value: 0.11, ...big }),
    ],
    ...change,
  };
}

/** Results as the service answers them: goals and a guardrail, healthy, Bayesian. */
function resultsOf(change: Partial<ExperimentResults> = {}): ExperimentResults {
  return {
    test: {
      id: 'bigger-button',
      app: 'checkout',
      status: 'running',
      started_at: '2026-11-20T10:00:00.000Z',
      ended_at: null,
    },
    phase: PHASE_1,
    phases: [PHASE_1],
    computed_at: COMPUTED_AT,
    engine: 'bayesian',
    sequential: false,
    correction: 'none',
    simulated: false,
    units: [
      { variant: 'control', units: 1000, expected_share: 0.5 },
      { variant: 'big', units: 1010, expected_share: 0.5 },
    ],
    health: {
      srm_p: 0.82,
      srm_warning: false,
      multiple_exposures: 0,
      multiple_exposures_warning: false,
      mismatches: 0,
    },
    metrics: [
      // A guardrail first: the page puts goals before guardrails.
      metric(
        'errors',
        'Errors',
        {
          verdict: 'not_enough_data',
          value: 0.02,
          lift: { estimate: -0.05, interval: [-0.2, 0.1] },
          chance_to_win: 0.7,
          risk: 0.00002,
          note: 'Fewer than 150 errors in the larger arm.',
        },
        { role: 'guardrail', inverse: true },
      ),
      metric('purchase', 'Purchase', {
        verdict: 'winning',
        lift: { estimate: 0.1, interval: [0.02, 0.18] },
        chance_to_win: 0.991,
        risk: 0.0031,
      }),
      metric('revenue', 'Revenue', {
        verdict: 'no_result',
        value: 0,
        note: 'The control’s mean is 0: no relative lift.',
      }),
    ],
    ...change,
  };
}

/** The same results read with the frequentist engine: p-values, no chance to win nor risk. */
function frequentist(query: ResultsQuery): ExperimentResults {
  const base = resultsOf();
  return {
    ...base,
    engine: 'frequentist',
    sequential: query.sequential === 'true',
    correction: query.correction ?? 'none',
    metrics: base.metrics.map((entry) => ({
      ...entry,
      variants: entry.variants.map(({ chance_to_win: _chance, risk: _risk, ...rest }) =>
        rest.verdict === 'control' ? rest : { ...rest, p_value: 0.0123 },
      ),
    })),
  };
}

const TIMESERIES: ExperimentTimeseries = {
  test: 'bigger-button',
  phase: 1,
  engine: 'bayesian',
  metrics: [
    {
      id: 'purchase',
      variants: [
        {
          id: 'big',
          points: [
            { date: '2026-11-21', units: 400, lift: null },
            { date: '2026-11-22', units: 900, lift: { estimate: 0.08, interval: [-0.02, 0.2] } },
            { date: '2026-11-23', units: 2010, lift: { estimate: 0.1, interval: [0.02, 0.18] } },
          ],
        },
      ],
    },
  ],
};

interface Served {
  queries: ResultsQuery[];
  refreshes: number;
}

function open(
  path: string,
  answer: (query: ResultsQuery, served: Served) => ExperimentResults = () => resultsOf(),
  status: AuthStatus = ADMIN_STATUS,
) {
  const served: Served = { queries: [], refreshes: 0 };
  const configs = new ConfigServer({ liveYaml: LIVE, status });
  connectForTest();
  http.use(
    ...configs.handlers,
    handle('getResults', ({ query }) => {
      served.queries.push(query);
      return { status: 200, body: answer(query, served) };
    }),
    handle('getResultsTimeseries', () => ({ status: 200, body: TIMESERIES })),
    handle('refreshResults', () => {
      served.refreshes += 1;
      return {
        status: 202,
        body: { test: 'bigger-button', requested_at: COMPUTED_AT, computed_at: COMPUTED_AT },
      };
    }),
  );
  return { served, user: userEvent.setup(), ...renderRoutes(routes, { path }) };
}

async function metricsTable() {
  return screen.findByRole('table', { name: 'Metrics' });
}

function rowTexts(table: HTMLElement): string[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.textContent ?? '');
}

/** The words a control's aria-describedby points to. */
function describedBy(element: HTMLElement): string {
  const ids = element.getAttribute('aria-describedby') ?? '';
  return ids
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent ?? '')
    .join(' ');
}

/** The text of each body row's cell in the `column`th column (the row header is the 0th). */
function cellsOf(table: HTMLElement, column: number): string[] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => row.children[column]?.textContent ?? '');
}

describe('the Results tab', () => {
  it('opens from the test page and puts itself in the address', async () => {
    const { user, history, served } = open('/ab-tests/live/bigger-button');
    await screen.findByRole('region', { name: 'Lifecycle' });
    // Results are read only once their tab opens.
    expect(served.queries).toHaveLength(0);
    await user.click(screen.getByRole('tab', { name: 'Results' }));
    expect(screen.getByRole('tab', { name: 'Results' }).getAttribute('aria-selected')).toBe('true');
    expect(history.location.search).toBe('?tab=results');
    expect(await metricsTable()).toBeTruthy();
    expect(served.queries).toEqual([{ engine: 'bayesian' }]);
  });

  it('is reached by keyboard: arrows move between the tabs', async () => {
    const { user } = open('/ab-tests/live/bigger-button');
    const overview = await screen.findByRole('tab', { name: 'Overview' });
    overview.focus();
    await user.keyboard('{ArrowRight}');
    const results = screen.getByRole('tab', { name: 'Results' });
    expect(document.activeElement).toBe(results);
    expect(await screen.findByRole('tabpanel', { name: 'Results' })).toBeTruthy();
  });

  it('says status, phase, dates and when the results were computed', async () => {
    open('/ab-tests/live/bigger-button?tab=results');
    const about = await screen.findByRole('region', { name: 'About the results' });
    expect(within(about).getByText('Running')).toBeTruthy();
    expect(within(about).getByText('Phase 1 (2026-11-20 to now)')).toBeTruthy();
    expect(within(about).getByText('Computed at').nextElementSibling?.textContent).toContain(
      '2026-11-26',
    );
    expect(within(about).queryByText('Simulated')).toBeNull();
    const units = screen.getByRole('table', { name: 'Units per variant' });
    expect(rowTexts(units)).toEqual(['control1,00049.8%50.0%', 'big1,01050.2%50.0%']);
  });

  it('shows one row per metric, goals first, each labelled, with the verdict in words', async () => {
    open('/ab-tests/live/bigger-button?tab=results');
    const table = await metricsTable();
    const headers = within(table)
      .getAllByRole('columnheader')
      // The words, without the axis drawn under the lift's.
      .map((header) => header.childNodes[0]?.textContent);
    expect(headers).toEqual([
      'Metric',
      'Variant',
      'Control',
      'Variant value',
      'Lift (95% interval)',
      'Chance to win',
      'Risk of choosing',
      'Verdict',
    ]);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => within(row).getByRole('rowheader').textContent)).toEqual([
      'PurchasePrimary goal',
      'RevenueGoal',
      'ErrorsGuardrail · lower is better',
    ]);
    const [purchase, revenue, errors] = rows as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(purchase).getByText('10.0%')).toBeTruthy();
    expect(within(purchase).getByText('11.0%')).toBeTruthy();
    expect(purchase.textContent).toContain('+10.0% (+2.0% to +18.0%)');
    expect(within(purchase).getByText('99.1%')).toBeTruthy();
    expect(within(purchase).getByText('Winning')).toBeTruthy();
    // No result: the server's reason stands in for the verdict.
    expect(within(revenue).getByText('The control’s mean is 0: no relative lift.')).toBeTruthy();
    expect(within(errors).getByText('Not enough data yet')).toBeTruthy();
    expect(within(errors).getByText('Fewer than 150 errors in the larger arm.')).toBeTruthy();
    expect(errors.textContent).toContain('-5.0% (-20.0% to +10.0%)');
    // Every row is drawn on the one axis: a chart per row, hidden from screen readers.
    expect(table.querySelectorAll('svg.lift-bar[aria-hidden="true"]')).toHaveLength(3);
    expect(table.querySelectorAll('svg.lift-axis')).toHaveLength(1);
  });

  it('says the risk of choosing each variant under the Bayesian engine, and what it means', async () => {
    const { user } = open('/ab-tests/live/bigger-button?tab=results', (query) =>
      query.engine === 'frequentist' ? frequentist(query) : resultsOf(),
    );
    const table = await metricsTable();
    const risk = within(table).getByRole('columnheader', { name: 'Risk of choosing' });
    expect(describedBy(risk)).toContain(
      'What choosing the variant would cost on average should it in fact be worse than the control',
    );
    expect(describedBy(risk)).toContain('0.3% means you stand to lose 0.3%');
    const column = within(table).getAllByRole('columnheader').indexOf(risk);
    // Purchase, Revenue (no result: the server gives no risk), Errors (a tiny one).
    expect(cellsOf(table, column)).toEqual(['0.3%', '—', '< 0.1%']);
    expect(table.textContent).not.toContain('NaN');
    const chance = within(table).getByRole('columnheader', { name: 'Chance to win' });
    expect(describedBy(chance)).toBe('How likely the variant is really better than the control.');

    // The frequentist engine has no risk: neither the column nor its explanation.
    await user.click(screen.getByRole('radio', { name: 'Frequentist' }));
    await within(table).findByRole('columnheader', { name: 'p-value' });
    expect(within(table).queryByRole('columnheader', { name: 'Risk of choosing' })).toBeNull();
    expect(screen.queryByText('Risk of choosing')).toBeNull();
  });

  it('draws the lift over time, with a table of the same numbers', async () => {
    open('/ab-tests/live/bigger-button?tab=results');
    const byDay = await screen.findByRole('table', {
      name: 'Cumulative lift of big against control on Purchase, by day',
    });
    expect(rowTexts(byDay)).toEqual([
      '2026-11-21400No result—',
      '2026-11-22900+8.0%-2.0% to +20.0%',
      '2026-11-232,010+10.0%+2.0% to +18.0%',
    ]);
    expect(
      screen.getByRole('img', { name: /Cumulative lift of big against control on Purchase/ }),
    ).toBeTruthy();
  });

  it('says a sample ratio mismatch in words with its likely causes, and the other health notes', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () =>
      resultsOf({
        simulated: true,
        units: [
          { variant: 'control', units: 1000, expected_share: 0.5 },
          { variant: 'big', units: 700, expected_share: 0.5 },
        ],
        health: {
          srm_p: 0.00001,
          srm_warning: true,
          multiple_exposures: 40,
          multiple_exposures_warning: true,
          mismatches: 3,
        },
      }),
    );
    const banner = await screen.findByRole('region', { name: 'Sample ratio mismatch' });
    expect(banner.textContent).toContain('The units are not split as the weights say');
    expect(banner.textContent).toContain(
      'control has 58.8% of them where 50.0% was expected, big has 41.2% of them where 50.0% was expected.',
    );
    expect(banner.textContent).toContain('(p < 0.0001)');
    expect(within(banner).getByText('Likely causes:')).toBeTruthy();
    expect(within(banner).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3);
    const notes = screen.getByRole('list', { name: 'Health notes' });
    expect(notes.textContent).toContain('40 units saw more than one variant (2.3% of them)');
    expect(notes.textContent).toContain('3 exposures name a variant other than the one');
    expect(screen.getByText('Simulated')).toBeTruthy();
  });

  it('says nothing of health when the test is healthy', async () => {
    open('/ab-tests/live/bigger-button?tab=results');
    await metricsTable();
    expect(screen.queryByRole('region', { name: 'Sample ratio mismatch' })).toBeNull();
    expect(screen.queryByRole('list', { name: 'Health notes' })).toBeNull();
  });
});

describe('the engine switch', () => {
  it('asks the server for the chosen engine and options, and keeps them in the address', async () => {
    const { user, served, history } = open('/ab-tests/live/bigger-button?tab=results', (query) =>
      query.engine === 'frequentist' ? frequentist(query) : resultsOf(),
    );
    const table = await metricsTable();
    expect(within(table).getByRole('columnheader', { name: 'Chance to win' })).toBeTruthy();
    expect(within(table).queryByRole('columnheader', { name: 'p-value' })).toBeNull();

    await user.click(screen.getByRole('radio', { name: 'Frequentist' }));
    await waitFor(() =>
      expect(served.queries.at(-1)).toEqual({
        engine: 'frequentist',
        sequential: 'false',
        correction: 'none',
      }),
    );
    const switched = await within(table).findByRole('columnheader', { name: 'p-value' });
    expect(switched).toBeTruthy();
    expect(within(table).queryByRole('columnheader', { name: 'Chance to win' })).toBeNull();
    // The p-value is shown as itself, never turned into a chance.
    expect(within(table).getAllByText('0.012')).toHaveLength(3);
    expect(within(table).queryByText('98.8%')).toBeNull();
    expect(history.location.search).toBe('?tab=results&engine=frequentist');

    await user.click(screen.getByRole('checkbox', { name: /Sequential testing/ }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Correction for many comparisons' }),
      'Holm',
    );
    await waitFor(() =>
      expect(served.queries.at(-1)).toEqual({
        engine: 'frequentist',
        sequential: 'true',
        correction: 'holm',
      }),
    );
    expect(history.location.search).toBe(
      '?tab=results&engine=frequentist&sequential=true&correction=holm',
    );
  });

  it('reproduces the view a link names', async () => {
    const { served } = open(
      '/ab-tests/live/bigger-button?tab=results&engine=frequentist&correction=bh',
      (query) => frequentist(query),
    );
    await metricsTable();
    expect(served.queries[0]).toEqual({
      engine: 'frequentist',
      sequential: 'false',
      correction: 'bh',
    });
    expect((screen.getByRole('radio', { name: 'Frequentist' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(
      (
        screen.getByRole('combobox', {
          name: 'Correction for many comparisons',
        }) as HTMLSelectElement
      ).value,
    ).toBe('bh');
  });

  it('reads an earlier phase when one is chosen', async () => {
    const phase2 = { ...PHASE_1, number: 2, started_at: '2026-11-24T10:00:00.000Z' };
    const phase1 = { ...PHASE_1, ended_at: '2026-11-24T10:00:00.000Z' };
    const { user, served, history } = open('/ab-tests/live/bigger-button?tab=results', (query) =>
      resultsOf({ phase: query.phase === '1' ? phase1 : phase2, phases: [phase1, phase2] }),
    );
    const phase = await screen.findByRole('combobox', { name: 'Phase' });
    expect((phase as HTMLSelectElement).value).toBe('2');
    await user.selectOptions(phase, 'Phase 1 (2026-11-20 to 2026-11-24)');
    await waitFor(() => expect(served.queries.at(-1)).toEqual({ engine: 'bayesian', phase: '1' }));
    expect(history.location.search).toBe('?tab=results&phase=1');
  });
});

describe('refreshing the results', () => {
  it('asks for a computation, then reads the results until they are newer', async () => {
    const NEWER = '2026-11-26T09:05:00.000Z';
    const { user, served } = open('/ab-tests/live/bigger-button?tab=results', (_, state) => {
      // The job finishes after the second read that follows the refresh.
      const readsSinceRefresh = state.refreshes === 0 ? 0 : state.queries.length - 1;
      return resultsOf({ computed_at: readsSinceRefresh >= 3 ? NEWER : COMPUTED_AT });
    });
    const about = await screen.findByRole('region', { name: 'About the results' });
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    await user.click(within(about).getByRole('button', { name: 'Refresh' }));
    expect(await within(about).findByText('Computing the results…')).toBeTruthy();
    expect(served.refreshes).toBe(1);
    expect(await within(about).findByText('The results are up to date.')).toBeTruthy();
    expect(within(about).getByText('Computed at').nextElementSibling?.textContent).toContain(
      '09:05',
    );
    expect(served.queries.length).toBeGreaterThanOrEqual(4);
    // Once they are in, the wait (and the reading again with it) is over.
    expect(within(about).queryByText('Computing the results…')).toBeNull();
    expect(
      (within(about).getByRole('button', { name: 'Refresh' }) as HTMLButtonElement).disabled,
    ).toBe(false);
    // Results that came in time are not given up on later.
    act(() => vi.advanceTimersByTime(REFRESH_GIVE_UP_MS));
    expect(within(about).getByText('The results are up to date.')).toBeTruthy();
  });

  it('gives up after a while without newer results, and says so', async () => {
    const { user } = open('/ab-tests/live/bigger-button?tab=results');
    const about = await screen.findByRole('region', { name: 'About the results' });
    // Only the give-up timer is faked; polling and the page run on real time.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout'] });
    await user.click(within(about).getByRole('button', { name: 'Refresh' }));
    expect(await within(about).findByText('Computing the results…')).toBeTruthy();
    act(() => vi.advanceTimersByTime(REFRESH_GIVE_UP_MS));
    expect(
      await within(about).findByText(
        'The results are still being computed. Refresh again in a minute.',
      ),
    ).toBeTruthy();
  });
});

describe('promoting from the results', () => {
  it('offers Promote beside the winner of the primary goal, opening the promote dialog with it chosen', async () => {
    const { user } = open('/ab-tests/live/bigger-button?tab=results');
    const table = await metricsTable();
    const promote = within(table).getByRole('button', { name: 'Promote big' });
    expect(within(table).getAllByRole('button')).toHaveLength(1);
    await user.click(promote);
    const dialog = screen.getByRole('dialog', { name: 'Promote a winner of bigger-button?' });
    expect((within(dialog).getByRole('radio', { name: 'big' }) as HTMLInputElement).checked).toBe(
      true,
    );
    expect(
      within(dialog).getByRole('table', { name: 'Settings copied into checkout from big' }),
    ).toBeTruthy();
  });

  it('offers none to a key that cannot publish', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () => resultsOf(), VIEWER);
    const table = await metricsTable();
    expect(within(table).queryByRole('button')).toBeNull();
  });

  it('offers none when the primary goal is not won', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () => {
      const base = resultsOf();
      return {
        ...base,
        metrics: base.metrics.map((entry) =>
          entry.id === 'purchase'
            ? metric('purchase', 'Purchase', { verdict: 'inconclusive' })
            : entry.id === 'revenue'
              ? metric('revenue', 'Revenue', { verdict: 'winning' })
              : entry,
        ),
      };
    });
    const table = await metricsTable();
    expect(within(table).queryByRole('button', { name: 'Promote big' })).toBeNull();
  });
});

describe('empty states', () => {
  it('before the first computation: says so, and offers Refresh', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () => resultsOf({ computed_at: null }));
    const empty = await screen.findByRole('region', { name: 'Not computed yet' });
    expect(empty.textContent).toContain('The results have not been computed yet.');
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Metrics' })).toBeNull();
  });

  it('without exposures: asks whether the app calls client.variant(), with a snippet', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () =>
      resultsOf({
        units: [
          { variant: 'control', units: 0, expected_share: 0.5 },
          { variant: 'big', units: 0, expected_share: 0.5 },
        ],
      }),
    );
    const empty = await screen.findByRole('region', { name: 'No exposures yet' });
    expect(
      within(empty).getByRole('heading', {
        name: 'No exposures yet: is the app calling client.variant()?',
      }),
    ).toBeTruthy();
    const snippet = within(empty).getByLabelText('Snippet for this test');
    expect(snippet.textContent).toContain("const variant = client.variant('bigger-button', unit);");
    expect(snippet.textContent).toContain("app: 'checkout'");
    expect(snippet.textContent).toContain("client.track('your-event', unit);");
    expect(within(empty).getByRole('button', { name: 'Copy snippet' })).toBeTruthy();
    expect(within(empty).getByRole('link', { name: 'Delivery page' }).getAttribute('href')).toBe(
      '/delivery',
    );
  });

  it('without metrics: says where to name them, with the way to the Metrics page', async () => {
    open('/ab-tests/live/bigger-button?tab=results', () => resultsOf({ metrics: [] }));
    const section = await screen.findByRole('region', { name: 'Metrics' });
    expect(section.textContent).toContain('Name goal metrics in the test’s metrics: list');
    expect(within(section).getByRole('link', { name: 'Metrics page' }).getAttribute('href')).toBe(
      '/metrics',
    );
    expect(screen.getByRole('table', { name: 'Units per variant' })).toBeTruthy();
  });

  it('on a server that does not compute results: says so', async () => {
    const configs = new ConfigServer({ liveYaml: LIVE });
    connectForTest();
    http.use(...configs.handlers, notOffered('getResults'));
    renderRoutes(routes, { path: '/ab-tests/live/bigger-button?tab=results' });
    expect(
      await screen.findByText('This server does not compute the results of A/B tests.'),
    ).toBeTruthy();
  });

  it('for a test of a draft that never ran: says there are no results for it', async () => {
    const configs = new ConfigServer({ liveYaml: LIVE });
    configs.add({
      id: 'cfg_d',
      label: 'Dark mode draft',
      yaml: `${LIVE}  - id: dark-mode
    app: checkout
    status: draft
    variants:
      - id: control
        weight: 50
      - id: dark
        weight: 50
`,
    });
    connectForTest();
    http.use(
      ...configs.handlers,
      handle('getResults', () => ({ problem: problemOf('not_found', 'No test dark-mode') })),
    );
    renderRoutes(routes, { path: '/ab-tests/cfg_d/dark-mode?tab=results' });
    expect(
      await screen.findByText(
        'There are no results for dark-mode: it has not run in the live config.',
      ),
    ).toBeTruthy();
  });
});
