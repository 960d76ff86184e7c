import type { ComponentType } from 'react';
import { createBrowserRouter } from 'react-router';
import { FullPageLoader } from '../components/full-page-loader';
import { prefetchDashboard } from '../features/dashboard/prefetch';
import { wasSignedIn } from '../lib/storage-keys';
import { ProtectedRoute } from './protected-route';
import { queryClient } from './providers';
import { PublicLayout } from './public-layout';
import { RouteError } from './route-error';
import { ShellLayout } from './shell/shell-layout';

/** Each page is its own chunk, loaded when its route is first visited. */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return async () => ({ Component: (await load())[name] });
}

// Routes of spec part 1 §2.1 and part 2 "Route table". /test-tags and /animation-demo are not built (DESIGN.md).
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    hydrateFallbackElement: <FullPageLoader />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/intro', lazy: page(() => import('../features/intro/intro-page'), 'IntroPage') },
          { path: '/login', lazy: page(() => import('../features/auth/login-page'), 'LoginPage') },
          { path: '/register', lazy: page(() => import('../features/auth/register-page'), 'RegisterPage') },
          {
            path: '/forgot-password',
            lazy: page(() => import('../features/auth/forgot-password-page'), 'ForgotPasswordPage'),
          },
          {
            path: '/reset-password',
            lazy: page(() => import('../features/auth/reset-password-page'), 'ResetPasswordPage'),
          },
          { path: '*', lazy: page(() => import('../features/not-found/not-found-page'), 'NotFoundPage') },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <ShellLayout />,
            children: [
              {
                path: '/',
                // The dashboard's data requests start with the page's code and the session check, not after them.
                loader: () => {
                  if (wasSignedIn()) prefetchDashboard(queryClient);
                  return null;
                },
                lazy: page(() => import('../features/dashboard/dashboard-page'), 'DashboardPage'),
              },
              { path: '/trade-log', lazy: page(() => import('../features/trade-log/trade-log-page'), 'TradeLogPage') },
              { path: '/reflect', lazy: page(() => import('../features/reflect/reflect-page'), 'ReflectPage') },
              {
                path: '/reflect-ai',
                lazy: page(() => import('../features/reflect-ai/reflect-ai-page'), 'ReflectAiPage'),
              },
              { path: '/notebook', lazy: page(() => import('../features/notebook/notebook-page'), 'NotebookPage') },
              { path: '/journal', lazy: page(() => import('../features/journal/journal-page'), 'JournalPage') },
              {
                path: '/trade/:id',
                lazy: page(() => import('../features/trade-details/trade-details-page'), 'TradeDetailsPage'),
              },
              { path: '/tutorials', lazy: page(() => import('../features/tutorials/tutorials-page'), 'TutorialsPage') },
            ],
          },
        ],
      },
    ],
  },
]);
