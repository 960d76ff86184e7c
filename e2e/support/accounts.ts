import type { BrowserContext } from 'playwright-core';
import { uniqueEmail, type ApiClient, type TestApp } from '../../tests/support/app';

export const PASSWORD = 'correct-horse-9';

export interface Account {
  email: string;
  password: string;
}

/**
 * Creates an account over the API and signs the browser profile in with its session cookie, for scenarios about
 * the shell rather than about signing up. The API client connects from its own loopback address, so these
 * sign-ups do not use up the browser's (127.0.0.1) sign-up allowance of 3 per 10 s. Without SMTP the sign-up itself
 * signs the account in; with SMTP the account is signed in once its email is confirmed.
 */
export async function signedInAccount(app: TestApp, context: BrowserContext, prefix = 'trader'): Promise<Account> {
  const client = app.client();
  const account = await createAccount(app, prefix, PASSWORD, client);
  if (!/session_token=/.test(client.cookieHeader)) {
    const res = await client.signIn(account.email, account.password);
    if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${JSON.stringify(res.body)}`);
  }
  await addSessionCookies(app, context, client);
  return account;
}

/** An account created over the API (confirmed at once when the server has no SMTP). */
export async function createAccount(app: TestApp, prefix = 'trader', password = PASSWORD, client: ApiClient = app.client()): Promise<Account> {
  const email = uniqueEmail(prefix);
  const res = await client.signUp(email, password);
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { email, password };
}

/** The API client's cookies (its session) given to the browser profile. */
export async function addSessionCookies(app: TestApp, context: BrowserContext, client: ApiClient): Promise<void> {
  const cookies = client.cookieHeader
    .split('; ')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url: app.url, httpOnly: true, sameSite: 'Lax' as const };
    });
  await context.addCookies(cookies);
}
