import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../src/server/free-port';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { startCaptchaVerifyServer, type CaptchaVerifyServer } from '../support/captcha-verify-server';
import { passIdentityProvider, startOidcServer, type OidcServer } from '../support/oidc-server';

/**
 * Captcha on sign-up: the server asks a local stand-in for the provider's
 * siteverify endpoint, and checks every sign-up itself, so a script that skips the widget is refused.
 */

const captchaEnv = (provider: string, verify: CaptchaVerifyServer) => ({
  CAPTCHA_PROVIDER: provider,
  CAPTCHA_SITE_KEY: 'site-key-123',
  CAPTCHA_SECRET_KEY: 'secret-key-456',
  CAPTCHA_VERIFY_URL: verify.url,
});

async function signUpWith(client: ApiClient, email: string, pass?: string) {
  const res = await client.request(
    'POST',
    '/api/auth/sign-up/email',
    { email, password: 'correct-horse-9', name: 'x' },
    pass === undefined ? {} : { 'x-captcha-response': pass },
  );
  return { status: res.status, body: (await res.json()) as { message?: string; code?: string } };
}

async function passFor(client: ApiClient, token = `pass-${Math.random()}`): Promise<string> {
  const { status, body } = await client.post<{ success: boolean; pass: string }>('/api/verify-recaptcha', { token });
  expect(status).toBe(200);
  expect(body.success).toBe(true);
  return body.pass;
}

describe('without a captcha', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app?.close());

  it('shows no widget, signs up without one, and allows only its own origin in the CSP', async () => {
    const client = app.client();
    expect((await client.get('/api/config')).body.captcha).toBeNull();
    expect((await signUpWith(client, uniqueEmail())).status).toBe(200);
    const csp = (await app.client().request('GET', '/login')).headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toMatch(/hcaptcha|cloudflare/);
  });
});

describe('in development mode with captcha keys set', () => {
  let app: TestApp;
  let verify: CaptchaVerifyServer;
  beforeAll(async () => {
    verify = await startCaptchaVerifyServer();
    app = await startTestApp({ env: { NODE_ENV: 'development', ...captchaEnv('hcaptcha', verify) } });
  });
  afterAll(async () => {
    await app?.close();
    await verify?.close();
  });

  it('skips the captcha, as the spec says', async () => {
    expect((await app.client().get('/api/config')).body.captcha).toBeNull();
    expect((await signUpWith(app.client(), uniqueEmail())).status).toBe(200);
    expect(verify.requests).toHaveLength(0);
  });
});

describe.each([
  ['hcaptcha', 'hCaptcha', 'https://*.hcaptcha.com'],
  ['cloudflare-turnstile', 'Turnstile', 'https://challenges.cloudflare.com'],
])('captcha %s', (provider, label, origin) => {
  let app: TestApp;
  let verify: CaptchaVerifyServer;
  beforeAll(async () => {
    verify = await startCaptchaVerifyServer();
    app = await startTestApp({ env: captchaEnv(provider, verify) });
  });
  afterAll(async () => {
    await app?.close();
    await verify?.close();
  });

  it('publishes the provider and site key, never the secret, and lets the widget through the CSP', async () => {
    const res = await app.client().request('GET', '/api/config');
    const text = await res.text();
    expect(JSON.parse(text).captcha).toEqual({ provider, siteKey: 'site-key-123' });
    expect(text).not.toContain('secret-key-456');
    const csp = (await app.client().request('GET', '/register')).headers.get('content-security-policy')!;
    for (const directive of ['script-src', 'frame-src', 'connect-src']) {
      expect(csp).toMatch(new RegExp(`${directive} [^;]*${origin.replace(/[.*]/g, '\\$&')}`));
    }
  });

  it('POST /api/verify-recaptcha asks the provider with the secret, the token and the client address', async () => {
    const client = app.client();
    const before = verify.requests.length;
    const bad = await client.post('/api/verify-recaptcha', { token: 'robot-token' });
    expect(bad).toEqual({ status: 200, body: { success: false } });
    const sent = verify.requests[before]!;
    expect(sent.fields).toMatchObject({ secret: 'secret-key-456', response: 'robot-token', remoteip: client.address });
    if (provider === 'hcaptcha') {
      expect(sent.contentType).toContain('application/x-www-form-urlencoded');
      expect(sent.fields.sitekey).toBe('site-key-123');
    } else {
      expect(sent.contentType).toContain('application/json');
    }
    const good = await client.post('/api/verify-recaptcha', { token: 'pass-1' });
    expect(good.body).toEqual({ success: true, pass: expect.any(String) });
  });

  it('refuses a sign-up that skipped the widget, forged a pass, or sent the provider token itself', async () => {
    const email = uniqueEmail('robot');
    const missing = await signUpWith(app.client(), email);
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe(`Please complete the ${label} verification`);
    const forged = await signUpWith(app.client(), email, 'made-up-pass');
    expect(forged.status).toBe(403);
    expect(forged.body.message).toBe(`${label} verification failed. Please try again.`);
    const raw = await signUpWith(app.client(), email, 'pass-raw-token');
    expect(raw.status).toBe(403);
    // None of them created the account.
    expect((await app.client().signIn(email)).status).toBe(401);
  });

  it('accepts a sign-up with a pass once; the same pass cannot create a second account', async () => {
    const client = app.client();
    const pass = await passFor(client);
    const email = uniqueEmail('human');
    expect((await signUpWith(client, email, pass)).status).toBe(200);
    expect((await app.client().signIn(email)).status).toBe(200);
    const replay = await signUpWith(app.client(), uniqueEmail('replay'), pass);
    expect(replay.status).toBe(403);
  });

  it('signs in without a captcha (the spec puts it on sign-up only)', async () => {
    const email = uniqueEmail('signin');
    expect((await signUpWith(app.client(), email, await passFor(app.client()))).status).toBe(200);
    expect((await app.client().signIn(email)).status).toBe(200);
  });

  it('answers 502 when the provider cannot be reached, and 400 naming the token when it is missing', async () => {
    verify.status = 503;
    try {
      const down = await app.client().post('/api/verify-recaptcha', { token: 'pass-2' });
      expect(down.status).toBe(502);
      expect(down.body.success).toBe(false);
    } finally {
      verify.status = 200;
    }
    const missing = await app.client().post('/api/verify-recaptcha', {});
    expect(missing.status).toBe(400);
    expect(missing.body.error).toMatch(/^token/);
  });
});

describe.each(backends())('captcha on sign-up through an OpenID provider on %s', (backend) => {
  let app: TestApp;
  let verify: CaptchaVerifyServer;
  let idp: OidcServer;
  beforeAll(async () => {
    verify = await startCaptchaVerifyServer();
    const port = await freePort('127.0.0.1');
    idp = await startOidcServer({ redirectUris: [`http://127.0.0.1:${port}/api/auth/callback/oidc`] });
    app = await startTestApp({
      backend,
      env: {
        PORT: String(port),
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: idp.clientId,
        OIDC_CLIENT_SECRET: idp.clientSecret,
        ...captchaEnv('hcaptcha', verify),
      },
    });
  });
  afterAll(async () => {
    await app?.close();
    await idp?.close();
    await verify?.close();
  });

  async function start(client: ApiClient, body: Record<string, unknown>, pass?: string) {
    const res = await client.request(
      'POST',
      '/api/auth/sign-in/social',
      { provider: 'oidc', callbackURL: '/auth-callback.html?next=%2F', errorCallbackURL: '/auth-callback.html?next=%2Fregister', ...body },
      pass ? { 'x-captcha-response': pass } : {},
    );
    return { status: res.status, body: (await res.json()) as { url?: string; message?: string } };
  }

  async function finish(client: ApiClient, url: string, email: string) {
    const back = new URL(await passIdentityProvider(url, { email, action: 'allow' }));
    const res = await client.request('GET', back.pathname + back.search);
    return new URL(res.headers.get('location')!, app.url);
  }

  it('needs a pass to sign up through the provider, and creates no account from the sign-in button', async () => {
    const email = uniqueEmail('sso');
    idp.addUser({ email, name: 'SSO', emailVerified: true });

    const noPass = await start(app.client(), { requestSignUp: true });
    expect(noPass.status).toBe(400);
    expect(noPass.body.message).toBe('Please complete the hCaptcha verification');

    // The sign-in button (no requestSignUp) reaches the provider, but the app creates no account on return.
    const viaSignIn = app.client();
    const started = await start(viaSignIn, {});
    expect(started.status).toBe(200);
    const refused = await finish(viaSignIn, started.body.url!, email);
    expect(refused.searchParams.get('error')).toBe('signup_disabled');
    expect((await viaSignIn.get('/api/auth/get-session')).body).toBeNull();

    const human = app.client();
    const signUp = await start(human, { requestSignUp: true }, await passFor(human));
    expect(signUp.status).toBe(200);
    const landed = await finish(human, signUp.body.url!, email);
    expect(landed.pathname).toBe('/auth-callback.html');
    expect(landed.searchParams.get('error')).toBeNull();
    expect((await human.get('/api/auth/get-session')).body.user.email).toBe(email);

    // From now on the trader signs in through the provider without a captcha.
    const returning = app.client();
    const again = await start(returning, {});
    await finish(returning, again.body.url!, email);
    expect((await returning.get('/api/auth/get-session')).body.user.email).toBe(email);
  });
});

describe('Content-Security-Policy for hosted tutorial videos', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      env: { TUTORIAL_VIDEO_URLS: 'https://videos.example.com/a.webm, https://videos.example.com/b.webm,https://cdn.example.org/c.mp4' },
    });
  });
  afterAll(() => app?.close());

  it('lets media load from the configured origins only', async () => {
    const res = await app.client().request('GET', '/tutorials');
    expect(res.headers.get('content-security-policy')).toContain("media-src 'self' https://videos.example.com https://cdn.example.org;");
    expect((await app.client().get('/api/config')).body.tutorialVideoUrls).toEqual([
      'https://videos.example.com/a.webm',
      'https://videos.example.com/b.webm',
      'https://cdn.example.org/c.mp4',
    ]);
  });
});
