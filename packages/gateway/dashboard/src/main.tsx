import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { isApiError } from './api/http';
import { router } from './routes';
import { applyStoredTheme } from './theme';
import './styles/theme.css';

applyStoredTheme();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refused request (4xx) is not retried: its message says what to change.
      retry: (count, error) => !(isApiError(error) && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
      staleTime: 2_000,
    },
  },
});

const root = document.getElementById('root');
if (root === null) throw new Error('The dashboard page has no #root element.');
createRoot(root).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  </StrictMode>,
);
