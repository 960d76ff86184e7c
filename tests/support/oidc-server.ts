import crypto from 'node:crypto';
import http from 'node:http';
import Provider from 'oidc-provider';
import { freePort } from '../../src/server/free-port';

/**
 * A real OpenID Connect provider (the `oidc-provider` package) on a loopback port, standing in for Google, Authentik,
 * Keycloak and the like. Its sign-in page is a plain form: the person types an email known to it and presses
 * Continue (granting access) or Cancel (denying it). Users are added by the test with the claims the provider should
 * assert, `email_verified` included.
 */

export interface IdpUser {
  email: string;
  name: string;
  emailVerified: boolean;
}

export interface OidcServer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Registers (or replaces) a user the provider can sign in; returns its subject. */
  addUser(user: IdpUser): string;
  close(): Promise<void>;
}

const subjectOf = (email: string) => crypto.createHash('sha256').update(email.toLowerCase()).digest('hex').slice(0, 24);

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch]!);

function loginPage(uid: string, clientId: string, error?: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Test identity provider</title></head>
<body><main><h1>Sign in to the test identity provider</h1>
<p>${escapeHtml(clientId)} asks for your email address and profile.</p>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Email <input name="email" type="email" autocomplete="off" data-testid="idp-email"></label>
<button type="submit" name="action" value="allow" data-testid="idp-continue">Continue</button>
<button type="submit" name="action" value="deny" data-testid="idp-cancel">Cancel</button>
</form></main></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startOidcServer(options: { redirectUris: string[] }): Promise<OidcServer> {
  const port = await freePort('127.0.0.1');
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'edgebook-test';
  const clientSecret = crypto.randomBytes(24).toString('base64url');
  const users = new Map<string, IdpUser>();
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        response_types: ['code'],
        grant_types: ['authorization_code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'test-key', alg: 'RS256', use: 'sig' }] as never },
    cookies: { keys: [crypto.randomBytes(32).toString('hex')] },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Email and name in the ID token, as Google's tokens carry them.
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx, sub) {
      const user = [...users.values()].find((u) => subjectOf(u.email) === sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        async claims() {
          return { sub, email: user.email, email_verified: user.emailVerified, name: user.name };
        },
      };
    },
  });

  const callback = provider.callback();
  const server = http.createServer((req, res) => {
    const match = /^\/interaction\/([^/?]+)(\/login)?/.exec(req.url ?? '');
    if (!match) {
      callback(req, res);
      return;
    }
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const clientIdOf = String(details.params.client_id);
      if (req.method === 'GET') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid, clientIdOf));
        return;
      }
      const form = await readForm(req);
      if (form.get('action') === 'deny') {
        await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'The person cancelled.' });
        return;
      }
      const user = users.get((form.get('email') ?? '').toLowerCase());
      if (!user) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(details.uid, clientIdOf, 'No such user'));
        return;
      }
      const accountId = subjectOf(user.email);
      const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId, clientId: clientIdOf });
      const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
      grant!.addOIDCScope((missing.missingOIDCScope ?? ['openid', 'email', 'profile']).join(' '));
      if (missing.missingOIDCClaims) grant!.addOIDCClaims(missing.missingOIDCClaims);
      const grantId = await grant!.save();
      await provider.interactionFinished(req, res, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
      res.end(String((error as Error).message ?? error));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));

  return {
    issuer,
    clientId,
    clientSecret,
    addUser(user) {
      users.set(user.email.toLowerCase(), user);
      return subjectOf(user.email);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A tiny cookie jar for a script walking through the provider's pages, as a browser would. */
export class CookieJar {
  private cookies = new Map<string, string>();
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }
  store(res: Response) {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      const value = pair.slice(eq + 1).trim();
      if (!value || /max-age=0|expires=Thu, 01 Jan 1970/i.test(line)) this.cookies.delete(pair.slice(0, eq).trim());
      else this.cookies.set(pair.slice(0, eq).trim(), value);
    }
  }
}

/**
 * Walks the provider's side of a sign-in as a browser would: opens the authorization URL, submits the sign-in form
 * with `email` and `action`, follows redirects until they leave the provider, and returns that URL (the app's
 * callback with a code or an error).
 */
export async function passIdentityProvider(authorizationUrl: string, login: { email: string; action: 'allow' | 'deny' }): Promise<string> {
  const jar = new CookieJar();
  const origin = new URL(authorizationUrl).origin;
  let url = authorizationUrl;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop++) {
    const res = await fetch(url, {
      method,
      redirect: 'manual',
      headers: { cookie: jar.header(), ...(body && { 'content-type': 'application/x-www-form-urlencoded' }) },
      body,
    });
    jar.store(res);
    method = 'GET';
    body = undefined;
    if (res.status >= 300 && res.status < 400) {
      url = new URL(res.headers.get('location')!, url).toString();
      if (new URL(url).origin !== origin) return url;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (res.status !== 200 || !action) throw new Error(`identity provider answered ${res.status}: ${html.slice(0, 300)}`);
    url = new URL(action, url).toString();
    method = 'POST';
    body = new URLSearchParams(login).toString();
  }
  throw new Error('too many redirects at the identity provider');
}
