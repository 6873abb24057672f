import { useState } from 'react';
import { UNSAFE_createBrowserHistory as createBrowserHistory, useRoutes } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary';
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
  return (
    <ErrorBoundary fallback={() => <AppError />}>
      <AppProvider>
        <GuardedRouter history={history}>
          <AppRoutes />
        </GuardedRouter>
      </AppProvider>
    </ErrorBoundary>
  );
}
