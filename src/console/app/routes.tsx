/** One URL per page. Pages that need a key sit under RequireConnection. */
import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { AbTestsPage } from '../features/ab-tests/ab-tests-page';
import { ConfigsPage } from '../features/configs/configs-page';
import { SettingsPage } from '../features/settings/settings-page';
import { Layout } from './routes/layout';
import { NotFoundPage } from './routes/not-found';
import { RequireConnection } from './routes/require-connection';
import { RouteError } from './routes/route-error';

// The editor page is its own chunk: the first page never loads it (nor Monaco with it).
const ConfigPage = lazy(() =>
  import('../features/configs/config-page').then((module) => ({ default: module.ConfigPage })),
);

// The history page too: a page the first one never needs (docs/benchmarks.md).
const HistoryPage = lazy(() =>
  import('../features/configs/history-page').then((module) => ({ default: module.HistoryPage })),
);

function Loading({ children, label }: { children: ReactNode; label: string }) {
  return (
    <Suspense
      fallback={
        <div className="page" aria-busy="true">
          <Spinner label={label} />
        </div>
      }
    >
      {children}
    </Suspense>
  );
}

function EditorRoute() {
  return (
    <Loading label="Loading the editor…">
      <ConfigPage />
    </Loading>
  );
}

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
              { path: 'configs/:id', element: <EditorRoute /> },
              {
                path: 'configs/:id/history',
                element: (
                  <Loading label="Loading…">
                    <HistoryPage />
                  </Loading>
                ),
              },
              { path: 'ab-tests', element: <AbTestsPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
