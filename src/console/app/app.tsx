import { useState } from 'react';
import { UNSAFE_createBrowserHistory as createBrowserHistory, useRoutes } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary';
import { accountBasename } from '../lib/environment';
import { GuardedRouter } from '../lib/navigation';
import { AppProvider } from './provider';
import { routes } from './routes';
import { AppError } from './routes/route-error';

/** The page of the current address. */
export function AppRoutes() {
  return useRoutes(routes);
}

export function App() {
  // The history BrowserRouter would make (v5Compat: pushes are heard as well as pops).
  const [history] = useState(() => createBrowserHistory({ v5Compat: true }));
  // Fixed for the page's life: moving to another environment loads a new page.
  const [basename] = useState(() => accountBasename(window.location.pathname));
  return (
    <ErrorBoundary fallback={() => <AppError />}>
      <AppProvider>
        <GuardedRouter history={history} basename={basename}>
          <AppRoutes />
        </GuardedRouter>
      </AppProvider>
    </ErrorBoundary>
  );
}
