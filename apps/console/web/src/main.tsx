import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { ApiProblem } from './api/problem';
import { createConsoleRouter } from './routes';
import { applyStoredTheme } from './layout/theme';
import './styles.css';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // A refusal (4xx) will not change by asking again; a lost connection or a 5xx may.
      retry: (failures, error) => failures < 2 && !(error instanceof ApiProblem && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
});

applyStoredTheme();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={createConsoleRouter()} />
    </QueryClientProvider>
  </StrictMode>,
);
