import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionCache } from '../../src/server/http/session';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';

/**
 * A process reuses a looked-up session for a few seconds instead of reading it on every request.
 * Whatever ends a session must still end it at once: each test first makes the session cached (a request that needs
 * it), then ends it, then replays the browser's cookie.
 */
const PASSWORD = 'correct-horse-9';

describe.each(backends())('sessions ended while cached, on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend, env: { SESSION_CACHE_SECONDS: '60' } });
  });
  afterAll(() => app?.close());

  async function trader(): Promise<{ email: string; laptop: ApiClient; phone: ApiClient }> {
    const email = uniqueEmail();
    const laptop = app.client();
    expect((await laptop.signUp(email, PASSWORD)).status).toBe(200);
    const phone = app.client();
    expect((await phone.signIn(email, PASSWORD)).status).toBe(200);
    // Both sessions used once, so both are in the cache.
    expect((await laptop.get('/api/accounts')).status).toBe(200);
    expect((await phone.get('/api/accounts')).status).toBe(200);
    return { email, laptop, phone };
  }
  const replay = (cookie: string) => app.client().request('GET', '/api/accounts', undefined, { cookie });

  it('refuses a session revoked from another browser on its very next request', async () => {
    const { laptop, phone } = await trader();
    const { body: sessions } = await laptop.get<Array<{ token: string }>>('/api/auth/list-sessions');
    const phoneToken = sessions.find((s) => phone.cookieHeader.includes(s.token))?.token;
    expect(phoneToken).toBeTruthy();
    expect((await laptop.post('/api/auth/revoke-session', { token: phoneToken })).status).toBe(200);
    expect((await phone.get('/api/accounts')).status).toBe(401);
    expect((await laptop.get('/api/accounts')).status).toBe(200);
  });

  it('refuses the other sessions at once when the password changes with "sign out other devices"', async () => {
    const { laptop, phone } = await trader();
    const changed = await laptop.post('/api/auth/change-password', {
      currentPassword: PASSWORD,
      newPassword: 'new-horse-42',
      revokeOtherSessions: true,
    });
    expect(changed.status).toBe(200);
    expect((await phone.get('/api/accounts')).status).toBe(401);
    // The laptop's session was replaced by a new one, which works; the old token does not.
    expect((await laptop.get('/api/accounts')).status).toBe(200);
  });

  it('refuses every session of a deleted account at once', async () => {
    const { email, laptop, phone } = await trader();
    const laptopCookie = laptop.cookieHeader;
    expect((await laptop.json('DELETE', '/api/account', { email })).status).toBe(200);
    expect((await replay(laptopCookie)).status).toBe(401);
    expect((await phone.get('/api/accounts')).status).toBe(401);
  });

  it('refuses a signed-out session replayed from another address', async () => {
    const { laptop, phone } = await trader();
    const phoneCookie = phone.cookieHeader;
    expect((await phone.post('/api/auth/sign-out')).status).toBe(200);
    expect((await replay(phoneCookie)).status).toBe(401);
    expect((await laptop.get('/api/accounts')).status).toBe(200);
  });
});

describe('the session cache', () => {
  const user = { id: '8f0c6a52-3c1e-4a53-9a57-1d3f4c2b9e10', email: 'a@example.com', name: 'A' };
  const later = () => Date.now() + 60_000;

  it('does not store a lookup that overlapped a revocation', async () => {
    const cache = createSessionCache(60_000);
    const before = cache.generation();
    await cache.revoke(); // a sign-out lands while the lookup is on its way
    cache.set('token', user, later(), before);
    expect(cache.get('token')).toBeUndefined();
    cache.set('token', user, later(), cache.generation());
    expect(cache.get('token')).toEqual(user);
  });

  it("keeps an entry no longer than the session's own expiry", async () => {
    const cache = createSessionCache(60_000);
    cache.set('token', user, Date.now() + 30, cache.generation());
    expect(cache.get('token')).toEqual(user);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(cache.get('token')).toBeUndefined();
  });

  it('is emptied by news from another process, and trusts nothing while it cannot hear such news', async () => {
    let live = false;
    const listeners: Array<() => void> = [];
    const cache = createSessionCache(60_000, {
      sessionsChanged: async () => listeners.forEach((fn) => fn()),
      onSessionsChanged: (fn) => {
        listeners.push(fn);
        return { live: () => live };
      },
    });
    cache.set('token', user, later(), cache.generation());
    expect(cache.get('token')).toBeUndefined();
    live = true;
    cache.set('token', user, later(), cache.generation());
    expect(cache.get('token')).toEqual(user);
    listeners.forEach((fn) => fn()); // another process signed a trader out
    expect(cache.get('token')).toBeUndefined();
    cache.set('token', user, later(), cache.generation());
    live = false; // the listener dropped
    expect(cache.get('token')).toBeUndefined();
  });

  it('stores nothing when turned off', () => {
    const cache = createSessionCache(0);
    cache.set('token', user, later(), cache.generation());
    expect(cache.get('token')).toBeUndefined();
  });
});
