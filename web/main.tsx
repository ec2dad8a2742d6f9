import './styles/first-paint.css';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import type { SessionResponse } from '../domain/api/session.ts';
import { ApiError, onTwoFactorRequired } from './api.ts';
import { TWO_FACTOR_SETUP_PATH } from './app/paths.ts';
import { meQueryKey, sessionQuery } from './app/session.ts';
import { Toasts } from './components/toasts.tsx';
import { preloadCurrentPage, router } from './router.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // 4xx answers are final; retry only network and server errors.
      retry: (count, error) =>
        !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
      refetchOnWindowFocus: false,
    },
  },
});

// An administrator without a second factor (issue 16): any API call answering two_factor_required
// marks the session so and opens the set-up page, where the guards would send them anyway.
onTwoFactorRequired(() => {
  queryClient.setQueryData<SessionResponse>(meQueryKey, (me) =>
    me ? { ...me, twoFactorRequired: true } : me,
  );
  if (window.location.pathname !== TWO_FACTOR_SETUP_PATH) void router.navigate(TWO_FACTOR_SETUP_PATH);
});

// The session check starts now, in parallel with the first page's code, not after it (decision 016).
void queryClient.prefetchQuery(sessionQuery);
preloadCurrentPage();

const root = createRoot(document.getElementById('root')!);
// The first render is a transition, so React renders in slices and yields to the browser between
// them instead of one long task while the page builds (decision 016).
startTransition(() =>
  root.render(
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Toasts />
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </MantineProvider>
    </StrictMode>,
  ),
);
