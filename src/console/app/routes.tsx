/** One URL per page. Pages that need a key sit under RequireConnection. */
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { ConfigsPage } from '../features/configs/configs-page';
import { SettingsPage } from '../features/settings/settings-page';
import { Layout } from './routes/layout';
import { NotFoundPage } from './routes/not-found';
import { RequireConnection } from './routes/require-connection';
import { RouteError } from './routes/route-error';

/**
 * A page in a chunk of its own, loaded when its route is first visited: the first page
 * never loads the editor (nor Monaco with it), the history or the A/B test forms
 * (docs/benchmarks.md).
 */
function lazyPage(load: () => Promise<ComponentType>, loadingLabel: string) {
  const Page = lazy(async () => ({ default: await load() }));
  return (
    <Suspense
      fallback={
        <div className="page" aria-busy="true">
          <Spinner label={loadingLabel} />
        </div>
      }
    >
      <Page />
    </Suspense>
  );
}

const editorPage = lazyPage(
  async () => (await import('../features/configs/config-page')).ConfigPage,
  'Loading the editor…',
);
const historyPage = lazyPage(
  async () => (await import('../features/configs/history-page')).HistoryPage,
  'Loading the history…',
);
const abTestsLoading = 'Loading the A/B tests…';
const abTestsPage = lazyPage(
  async () => (await import('../features/ab-tests/ab-tests-page')).AbTestsPage,
  abTestsLoading,
);
const createAbTestPage = lazyPage(
  async () => (await import('../features/ab-tests/create-ab-test-page')).CreateAbTestPage,
  abTestsLoading,
);
const abTestPage = lazyPage(
  async () => (await import('../features/ab-tests/ab-test-page')).AbTestPage,
  abTestsLoading,
);

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    // The layout itself failing: a page of its own.
    errorElement: <RouteError />,
    children: [
      {
        // A page failing: the error shows inside the layout, the navigation still works.
        errorElement: <RouteError />,
        children: [
          { index: true, element: <Navigate to="/configs" replace /> },
          { path: 'settings', element: <SettingsPage /> },
          {
            element: <RequireConnection />,
            children: [
              { path: 'configs', element: <ConfigsPage /> },
              { path: 'configs/:id', element: editorPage },
              { path: 'configs/:id/history', element: historyPage },
              { path: 'ab-tests', element: abTestsPage },
              { path: 'ab-tests/new', element: createAbTestPage },
              { path: 'ab-tests/:configId/:testId', element: abTestPage },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
