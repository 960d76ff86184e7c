import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderOptions } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { theme } from '../app/theme';

/** A client as the app's, without retries, so a refused request shows its error at once. */
export function createTestQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false }, mutations: { retry: false } } });
}

/**
 * A component as the app draws it: its own query client, Mantine's theme and toasts, a router for its links. Mantine's
 * test mode draws dialogs and dropdowns in place and without transitions, so what opens is there at once. Returns
 * Testing Library's queries, a user to click and type, and the query client (to see what was invalidated).
 */
export function renderWithApp(
  ui: ReactElement,
  { client = createTestQueryClient(), ...options }: { client?: QueryClient } & Omit<RenderOptions, 'wrapper'> = {},
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MantineProvider theme={theme} defaultColorScheme="light" env="test">
        <Notifications transitionDuration={0} autoClose={false} />
        <MemoryRouter>{children}</MemoryRouter>
      </MantineProvider>
    </QueryClientProvider>
  );
  // No pause between keystrokes: the tests wait for what they expect instead.
  const user = userEvent.setup({ delay: null });
  return { user, client, ...render(ui, { wrapper, ...options }) };
}
