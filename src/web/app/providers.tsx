import { MantineProvider } from '@mantine/core';
import { Notifications, notificationsStore, updateNotificationsState } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';

// Server state: cached briefly and refetched on focus when older than 5 s (DESIGN.md).
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: true,
      retry: 1,
    },
  },
});

// The newest toast replaces the one on screen at once instead of waiting in Mantine's queue behind it (issue 14: a
// 'Task deleted!' appeared 9 s after the click).
notificationsStore.subscribe((state) => {
  if (state.queue.length > 0) updateNotificationsState(notificationsStore, (all) => all.slice(-1));
});

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider
        theme={theme}
        defaultColorScheme="dark"
        colorSchemeManager={colorSchemeManager}
        cssVariablesResolver={cssVariablesResolver}
      >
        {/* One toast at a time, closing by itself (DESIGN.md: the spec's 1,000,000 ms was a library default). */}
        {/* No slide: a replaced toast leaves at once rather than sliding out beside its successor. */}
        <Notifications limit={1} autoClose={4000} position="top-right" transitionDuration={0} />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
