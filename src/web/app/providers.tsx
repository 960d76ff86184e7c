import { MantineProvider } from '@mantine/core';
import { notificationsStore, updateNotificationsState, useNotifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, type ReactNode } from 'react';
import { useAfterFirstPaint } from '../lib/use-after-first-paint';
import { colorSchemeManager, cssVariablesResolver, theme } from './theme';
import { withAllStyles } from '../lib/all-styles';

// Server state: cached briefly and refetched on focus when older than 5 s.
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 5_000,
      refetchOnWindowFocus: true,
      retry: 1,
    },
  },
});

// The newest toast replaces the one on screen at once instead of waiting in Mantine's queue behind it (a
// 'Task deleted!' appeared 9 s after the click).
notificationsStore.subscribe((state) => {
  if (state.queue.length > 0) updateNotificationsState(notificationsStore, (all) => all.slice(-1));
});

// The toasts' component loads once the first screen has painted, or at once when a toast is shown before that (the
// store keeps it until then).
const ToastStack = lazy(withAllStyles(() => import('./toasts').then((m) => ({ default: m.ToastStack }))));

function Toasts() {
  const idle = useAfterFirstPaint();
  const pending = useNotifications().notifications.length > 0;
  if (!idle && !pending) return null;
  return (
    <Suspense fallback={null}>
      <ToastStack />
    </Suspense>
  );
}

export function Providers({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="dark" colorSchemeManager={colorSchemeManager} cssVariablesResolver={cssVariablesResolver}>
        <Toasts />
        {children}
      </MantineProvider>
    </QueryClientProvider>
  );
}
