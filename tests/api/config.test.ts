import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config';

function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('loadConfig accepted a bad environment');
}

describe('loadConfig', () => {
  it('names every bad variable in one error, so a self-hoster fixes .env in one pass', () => {
    const error = configError({ PORT: 'abc', DATABASE_URL: 'nope', SMTP_URL: 'http://x' });
    const named = error.problems.map((p) => p.split(':')[0]);
    expect(named.sort()).toEqual(['DATABASE_URL', 'PORT', 'SMTP_URL']);
    for (const name of ['PORT', 'DATABASE_URL', 'SMTP_URL']) expect(error.message).toContain(name);
  });

  it('refuses a database URL or SMTP URL of the wrong kind', () => {
    expect(configError({ DATABASE_URL: 'mysql://db/edgebook' }).problems).toEqual([expect.stringMatching(/^DATABASE_URL:/)]);
    expect(configError({ SMTP_URL: 'https://mail.example.com' }).problems).toEqual([expect.stringMatching(/^SMTP_URL:/)]);
    expect(configError({ PORT: '70000' }).problems).toEqual([expect.stringMatching(/^PORT:/)]);
    expect(configError({ AUTH_RATE_LIMIT: '0' }).problems).toEqual([expect.stringMatching(/^AUTH_RATE_LIMIT:/)]);
    expect(configError({ AUTH_SECRET: 'short' }).problems).toEqual([expect.stringMatching(/^AUTH_SECRET:/)]);
  });

  it('refuses half-configured Google sign-in and captcha', () => {
    expect(configError({ GOOGLE_CLIENT_ID: 'id' }).message).toContain('GOOGLE_CLIENT_SECRET');
    expect(configError({ CAPTCHA_PROVIDER: 'hcaptcha', CAPTCHA_SITE_KEY: 'k' }).message).toContain('CAPTCHA_SECRET_KEY');
  });

  it('refuses a half-configured OpenID provider and tutorial video URLs that are not three web addresses', () => {
    expect(configError({ OIDC_ISSUER: 'https://auth.example.com', OIDC_CLIENT_ID: 'edgebook' }).problems).toEqual([
      expect.stringMatching(/^OIDC_ISSUER: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together/),
    ]);
    expect(configError({ TUTORIAL_VIDEO_URLS: 'https://v.example.com/a.webm,https://v.example.com/b.webm' }).problems).toEqual([
      expect.stringMatching(/^TUTORIAL_VIDEO_URLS: give three URLs/),
    ]);
    expect(configError({ TUTORIAL_VIDEO_URLS: 'https://a/1.webm,javascript:alert(1),https://a/3.webm' }).problems).toEqual([
      expect.stringMatching(/^TUTORIAL_VIDEO_URLS/),
    ]);
  });

  it('requires the captcha outside development mode only', () => {
    const keys = { CAPTCHA_PROVIDER: 'cloudflare-turnstile', CAPTCHA_SITE_KEY: 'site', CAPTCHA_SECRET_KEY: 'secret' };
    expect(loadConfig({ ...keys, NODE_ENV: 'production' }).captcha).toEqual({
      provider: 'cloudflare-turnstile',
      siteKey: 'site',
      secretKey: 'secret',
    });
    expect(loadConfig({ ...keys, NODE_ENV: 'development' }).captcha).toBeNull();
    expect(loadConfig({ NODE_ENV: 'production' }).captcha).toBeNull();
  });

  it('runs on the embedded database at http://localhost:3000 with data under ./data when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      HOST: 'localhost',
      dataDir: path.resolve('./data'),
      databaseKind: 'pglite',
      baseUrl: 'http://localhost:3000',
      AUTH_RATE_LIMIT: 10,
      LOG_LEVEL: 'info',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.SMTP_URL).toBeUndefined();
  });

  it('treats empty variables (as .env.example leaves them) as unset', () => {
    const config = loadConfig({ DATABASE_URL: '', SMTP_URL: '', BASE_URL: '', AUTH_SECRET: '', AI_BASE_URL: '' });
    expect(config.databaseKind).toBe('pglite');
    expect(config.SMTP_URL).toBeUndefined();
    expect(config.baseUrl).toBe('http://localhost:3000');
  });

  it('switches to PostgreSQL with DATABASE_URL and derives the public address from HOST, PORT or BASE_URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/edgebook' }).databaseKind).toBe('postgres');
    expect(loadConfig({ DATABASE_URL: 'postgresql://db/edgebook' }).databaseKind).toBe('postgres');
    // Listening on every interface still gives links a trader can open.
    expect(loadConfig({ HOST: '0.0.0.0', PORT: '8080' }).baseUrl).toBe('http://localhost:8080');
    expect(loadConfig({ BASE_URL: 'https://journal.example.com/' }).baseUrl).toBe('https://journal.example.com');
  });
});
