/** One URL per page. Pages that need a key sit under RequireConnection. */
import { Navigate, type RouteObject } from 'react-router';
import { AbTestsPage } from '../features/ab-tests/ab-tests-page';
import { ConfigPage } from '../features/configs/config-page';
import { ConfigsPage } from '../features/configs/configs-page';
import { SettingsPage } from '../features/settings/settings-page';
import { Layout } from './routes/layout';
import { NotFoundPage } from './routes/not-found';
import { RequireConnection } from './routes/require-connection';
import { RouteError } from './routes/route-error';

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
              { path: 'configs/:id', element: <ConfigPage /> },
              { path: 'ab-tests', element: <AbTestsPage /> },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
