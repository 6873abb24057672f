import { lazy, Suspense, useEffect, useRef } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigationType } from 'react-router';
import { ErrorBoundary, RegionError } from '../../components/error-boundary';
import { Notices } from '../../components/notices';
import type { Permission } from '../../../contract/auth-status';
import { useAuthStatus } from '../../lib/auth';
import { useConnectionState } from '../../lib/connection';
import { offers } from '../../lib/permissions';
import { PRODUCT_NAME } from '../../lib/page-title';
import { RouteErrorBoundary } from './route-error';

// Loaded once signed in (the sign-in page does without it): the first page stays light.
const WhoamiPanel = lazy(async () => ({
  default: (await import('../../features/whoami/components/whoami-panel')).WhoamiPanel,
}));

// The environment and its switcher: loaded once signed in, like the whoami panel.
const EnvironmentSwitcher = lazy(async () => ({
  default: (await import('../../features/environments/components/environment-switcher'))
    .EnvironmentSwitcher,
}));

// Its forms load only when a session ends under the person.
const ReSignInDialog = lazy(async () => ({
  default: (await import('../../features/sign-in/re-sign-in-dialog')).ReSignInDialog,
}));

const NAV: readonly { to: string; label: string; needs?: Permission }[] = [
  { to: '/configs', label: 'Configs' },
  { to: '/ab-tests', label: 'A/B tests' },
  { to: '/metrics', label: 'Metrics' },
  { to: '/delivery', label: 'Delivery' },
  { to: '/audit', label: 'Audit trail', needs: 'audit:read' },
  { to: '/settings', label: 'Settings' },
];

/**
 * Banner, the navigation "Main", the page, and while signed in the whoami panel; over it all,
 * when a session ends under the person, the dialog to sign in again in place.
 */
export function Layout() {
  const { confirmed, interrupted } = useConnectionState();
  const signedIn = confirmed;
  const status = useAuthStatus().data;
  const { pathname } = useLocation();
  const navigationType = useNavigationType();
  const main = useRef<HTMLElement>(null);
  const previousPath = useRef(pathname);

  // After following a link (or going back), start reading the new page; redirects
  // (REPLACE, e.g. to the settings) leave focus where the page puts it.
  useEffect(() => {
    if (pathname === previousPath.current) return;
    previousPath.current = pathname;
    if (navigationType !== 'REPLACE') main.current?.focus();
  }, [pathname, navigationType]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="banner">
        <Link to="/" className="brand">
          <img src="/favicon.svg" alt="" width="24" height="24" />
          {PRODUCT_NAME}
        </Link>
        {signedIn && (
          <ErrorBoundary fallback={() => null}>
            <Suspense fallback={null}>
              <EnvironmentSwitcher />
            </Suspense>
          </ErrorBoundary>
        )}
        {signedIn && (
          <nav aria-label="Main">
            <ul>
              {NAV.filter((item) => !item.needs || offers(status, item.needs)).map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to}>{item.label}</NavLink>
                </li>
              ))}
            </ul>
          </nav>
        )}
      </header>
      <div className="shell">
        <main id="main" ref={main} tabIndex={-1}>
          <Notices />
          {/* A page failing: the error shows here, the navigation still works. */}
          <RouteErrorBoundary>
            <Outlet />
          </RouteErrorBoundary>
        </main>
        {signedIn && (
          <ErrorBoundary
            fallback={({ reset }) => (
              <aside className="whoami" aria-label="Who you are">
                <RegionError what="Who you are" reset={reset} />
              </aside>
            )}
          >
            <Suspense fallback={null}>
              <WhoamiPanel />
            </Suspense>
          </ErrorBoundary>
        )}
      </div>
      {interrupted !== null && (
        <Suspense fallback={null}>
          <ReSignInDialog />
        </Suspense>
      )}
    </div>
  );
}
