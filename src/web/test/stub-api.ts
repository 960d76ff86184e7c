import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** The trader every component test is signed in as (the session endpoint's answer, as far as the app reads it). */
export const SIGNED_IN = {
  session: { id: 'session-1', userId: 'user-1', expiresAt: '2099-01-01T00:00:00.000Z' },
  user: { id: 'user-1', email: 'trader@example.test', name: 'trader', emailVerified: true },
};

/**
 * The API as the component tests see it: requests leave the component through fetch or XMLHttpRequest as they do in
 * the browser and are answered here, so a test exercises our own request code rather than a stand-in for it. Each
 * test adds the answers it needs (`stubApi.use`); a request nobody answers fails the test.
 */
export const stubApi = setupServer(http.get('/api/auth/get-session', () => HttpResponse.json(SIGNED_IN)));
