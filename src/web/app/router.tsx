import { createBrowserRouter } from 'react-router';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { RegisterPage } from '../features/auth/register-page';
import { ResetPasswordPage } from '../features/auth/reset-password-page';
import { DashboardPage } from '../features/dashboard/dashboard-page';
import { IntroPage } from '../features/intro/intro-page';
import { JournalPage } from '../features/journal/journal-page';
import { NotFoundPage } from '../features/not-found/not-found-page';
import { NotebookPage } from '../features/notebook/notebook-page';
import { ReflectAiPage } from '../features/reflect-ai/reflect-ai-page';
import { ReflectPage } from '../features/reflect/reflect-page';
import { TradeDetailsPage } from '../features/trade-details/trade-details-page';
import { TradeLogPage } from '../features/trade-log/trade-log-page';
import { TutorialsPage } from '../features/tutorials/tutorials-page';
import { ProtectedRoute } from './protected-route';
import { PublicLayout } from './public-layout';
import { RouteError } from './route-error';
import { ShellLayout } from './shell/shell-layout';

// Routes of spec part 1 §2.1 and part 2 "Route table". /test-tags and /animation-demo are not built (DESIGN.md).
export const router = createBrowserRouter([
  {
    errorElement: <RouteError />,
    children: [
      {
        element: <PublicLayout />,
        children: [
          { path: '/intro', element: <IntroPage /> },
          { path: '/login', element: <LoginPage /> },
          { path: '/register', element: <RegisterPage /> },
          { path: '/forgot-password', element: <ForgotPasswordPage /> },
          { path: '/reset-password', element: <ResetPasswordPage /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
      {
        element: <ProtectedRoute />,
        children: [
          {
            element: <ShellLayout />,
            children: [
              { path: '/', element: <DashboardPage /> },
              { path: '/trade-log', element: <TradeLogPage /> },
              { path: '/reflect', element: <ReflectPage /> },
              { path: '/reflect-ai', element: <ReflectAiPage /> },
              { path: '/notebook', element: <NotebookPage /> },
              { path: '/journal', element: <JournalPage /> },
              { path: '/trade/:id', element: <TradeDetailsPage /> },
              { path: '/tutorials', element: <TutorialsPage /> },
            ],
          },
        ],
      },
    ],
  },
]);
