/** One URL per page. Pages for a signed-in person sit under RequireConnection. */
import { lazy, Suspense, type ComponentType } from 'react';
import { Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { Layout } from './routes/layout';
import { NotFoundPage } from './routes/not-found';
import { RequireConnection } from './routes/require-connection';
import { RouteErrorBoundary } from './routes/route-error';

/**
 * A page in a chunk of its own, loaded when its route is first visited, so that what every
 * visit loads first is the shell (layout, navigation, the API client and its contract):
 * never the editor (nor Monaco with it), the history, the A/B test forms or the settings
 * with their forms (react-hook-form) (docs/benchmarks.md).
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

const configsPage = lazyPage(
  async () => (await import('../features/configs/configs-page')).ConfigsPage,
  'Loading the configs…',
);
const settingsPage = lazyPage(
  async () => (await import('../features/settings/settings-page')).SettingsPage,
  'Loading the settings…',
);
const settingsLoading = 'Loading the settings…';
const membersPage = lazyPage(
  async () => (await import('../features/settings/members-page')).MembersPage,
  settingsLoading,
);
const signInSettingsPage = lazyPage(
  async () => (await import('../features/settings/sign-in-settings-page')).SignInSettingsPage,
  settingsLoading,
);
const sessionsPage = lazyPage(
  async () => (await import('../features/settings/sessions-page')).SessionsPage,
  settingsLoading,
);
const signInLoading = 'Loading the sign-in page…';
const signInPage = lazyPage(
  async () => (await import('../features/sign-in/sign-in-page')).SignInPage,
  signInLoading,
);
const signedInPage = lazyPage(
  async () => (await import('../features/sign-in/signed-in-page')).SignedInPage,
  signInLoading,
);
const invitationPage = lazyPage(
  async () => (await import('../features/sign-in/invitation-page')).InvitationPage,
  'Loading the invitation…',
);
const editorPage = lazyPage(
  async () => (await import('../features/configs/config-page')).ConfigPage,
  'Loading the editor…',
);
const comparePage = lazyPage(
  async () => (await import('../features/configs/compare-page')).ComparePage,
  'Loading the comparison…',
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
const metricsPage = lazyPage(
  async () => (await import('../features/metrics/metrics-page')).MetricsPage,
  'Loading the metrics…',
);
const auditPage = lazyPage(
  async () => (await import('../features/audit/audit-page')).AuditPage,
  'Loading the audit trail…',
);
const deliveryPage = lazyPage(
  async () => (await import('../features/delivery/delivery-page')).DeliveryPage,
  'Loading the delivery…',
);

export const routes: RouteObject[] = [
  {
    // The layout itself failing: a page of its own. (A page failing: Layout shows the error
    // in its place, and the navigation still works.)
    element: (
      <RouteErrorBoundary>
        <Layout />
      </RouteErrorBoundary>
    ),
    children: [
      {
        children: [
          { index: true, element: <Navigate to="/configs" replace /> },
          { path: 'sign-in', element: signInPage },
          { path: 'signed-in', element: signedInPage },
          { path: 'invitations/:token', element: invitationPage },
          {
            element: <RequireConnection />,
            children: [
              { path: 'settings', element: settingsPage },
              { path: 'settings/members', element: membersPage },
              { path: 'settings/sign-in', element: signInSettingsPage },
              { path: 'settings/sessions', element: sessionsPage },
              { path: 'configs', element: configsPage },
              { path: 'configs/:id', element: editorPage },
              { path: 'configs/:id/history', element: historyPage },
              { path: 'configs/:id/compare', element: comparePage },
              { path: 'ab-tests', element: abTestsPage },
              { path: 'ab-tests/new', element: createAbTestPage },
              { path: 'ab-tests/:configId/:testId', element: abTestPage },
              { path: 'metrics', element: metricsPage },
              { path: 'delivery', element: deliveryPage },
              { path: 'audit', element: auditPage },
            ],
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
];
