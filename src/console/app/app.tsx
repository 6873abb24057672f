import { createBrowserRouter, RouterProvider } from 'react-router';
import { ErrorBoundary } from '../components/error-boundary';
import { AppProvider } from './provider';
import { routes } from './routes';
import { AppError } from './routes/route-error';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <ErrorBoundary fallback={() => <AppError />}>
      <AppProvider>
        <RouterProvider router={router} />
      </AppProvider>
    </ErrorBoundary>
  );
}
