import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from 'better-auth/crypto';
import { eq } from 'drizzle-orm';
import { account, user } from '../../src/server/db/schema';
import { backends, startTestApp, uniqueEmail, type TestApp } from '../support/app';

describe.each(backends())('health and sign-up on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend, realPasswordHashing: true });
  });
  afterAll(() => app?.close());

  it('reports the database kind and that it answers', async () => {
    const res = await app.client().get('/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, database: backend });
  });

  it('signs up, holds an HttpOnly session cookie and reaches a protected endpoint', async () => {
    const client = app.client();
    const signUp = await client.request('POST', '/api/auth/sign-up/email', { email: uniqueEmail(), password: 'long-enough-1', name: 'x' });
    expect(signUp.status).toBe(200);
    expect(signUp.headers.getSetCookie().some((c) => /HttpOnly/i.test(c))).toBe(true);
    const prefs = await client.get('/api/preferences');
    expect(prefs.status).toBe(200);
    expect(prefs.body.time_zone).toBe('America/New_York');
    expect((await app.client().get('/api/preferences')).status).toBe(401);
  });

  it("stores the password as better-auth's own scrypt hash when no other hashing is given (only tests pass one)", async () => {
    const email = uniqueEmail();
    expect((await app.client().signUp(email, 'long-enough-1')).status).toBe(200);
    const [row] = await app.server.database.db
      .select({ password: account.password })
      .from(account)
      .innerJoin(user, eq(account.userId, user.id))
      .where(eq(user.email, email));
    expect(await verifyPassword({ hash: row!.password!, password: 'long-enough-1' })).toBe(true);
    expect(await verifyPassword({ hash: row!.password!, password: 'long-enough-2' })).toBe(false);
  });
});
