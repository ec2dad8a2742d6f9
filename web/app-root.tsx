/**
 * The tree every page renders in: Mantine's provider with the theme, the toasts' slot and TanStack
 * Query's client around the router. One component for the browser (main.tsx) and for the build's
 * prerendering of the public pages (web/prerender.tsx, decision 033): hydration needs the same tree
 * on both sides, down to the order of siblings, or React's ids (labels, tabs) would differ.
 */
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, StrictMode } from 'react';
import { ApiError } from './api.ts';
import { Toasts } from './components/toasts.tsx';
import { cssVariablesResolver, theme } from './theme.ts';

/** The app's query client: 4xx answers are final; only network and server errors are retried. */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (count, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2,
        refetchOnWindowFocus: false,
      },
    },
  });
}

/** The providers around the router (`children`). */
export function AppRoot({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
        <Toasts />
        <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
      </MantineProvider>
    </StrictMode>
  );
}
