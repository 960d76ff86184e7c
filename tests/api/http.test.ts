import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webRoot } from '../../src/server/app';
import { backends, rawRequest, startTestApp, uniqueEmail, type TestApp } from '../support/app';

describe.each(backends())('HTTP API on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend });
  });
  afterAll(() => app?.close());

  it('reports the database kind and that it answers', async () => {
    const res = await app.client().get('/api/health');
    expect(res).toEqual({ status: 200, body: { ok: true, database: backend } });
  });

  it('reports 503 when the database stops answering, so a monitor notices', async () => {
    const doomed = await startTestApp({ backend });
    try {
      await doomed.server.database.close();
      expect(await doomed.client().get('/api/health')).toEqual({
        status: 503,
        body: { ok: false, database: backend, error: 'The database is not reachable right now. Please try again in a few seconds.' },
      });
    } finally {
      await doomed.close().catch(() => {});
    }
  });

  it('answers an unknown API path with a JSON 404, never the web app', async () => {
    const trader = app.client();
    await trader.signUp(uniqueEmail());
    for (const [method, url] of [
      ['GET', '/api/no-such-thing'],
      ['POST', '/api/no-such-thing'],
      ['GET', '/api/accounts/extra/segments'],
    ] as const) {
      const res = await trader.request(method, url);
      expect(res.status, `${method} ${url}`).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual({ error: 'Not found' });
    }
  });

  it('logs one structured line per request, with the socket address rather than a forged one', async () => {
    const trader = app.client();
    const signUp = await trader.signUp(uniqueEmail());
    await trader.request('GET', '/api/accounts?limit=5', undefined, { 'x-forwarded-for': '203.0.113.9', 'x-real-ip': '203.0.113.9' });
    const lines = app.logs.filter((l) => l.msg === 'request' && l.path === '/api/accounts');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ method: 'GET', status: 200, ip: trader.address, user: signUp.body.user.id, level: 30 });
    expect(typeof lines[0]!.ms).toBe('number');
  });

  it('answers an unknown API path of a signed-out visitor with JSON, never the web app', async () => {
    const res = await app.client().request('GET', '/api/no-such-thing');
    expect([401, 404]).toContain(res.status);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

describe('serving the web app', () => {
  let app: TestApp;
  let indexHtml: string;
  beforeAll(async () => {
    // Builds dist/web only when it is missing or older than its sources (what `npm start` does).
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
    indexHtml = fs.readFileSync(path.join(webRoot, 'index.html'), 'utf8');
    app = await startTestApp();
  }, 180_000);
  afterAll(() => app?.close());

  /** The entry script the built index.html loads, e.g. /assets/index-CjPooP9r.js. */
  const manifest = () =>
    JSON.parse(fs.readFileSync(path.join(webRoot, '.vite', 'manifest.json'), 'utf8')) as Record<string, { file: string; css?: string[] }>;
  const manifestFile = (page: string) => manifest()[page]!.file;
  const entryScript = () => /<script[^>]*\ssrc="(\/assets\/[^"]+\.js)"/.exec(indexHtml)![1]!;

  it('answers a client-side route with index.html (history fallback), revalidated on every load', async () => {
    for (const route of ['/trade-log', '/reflect/notes', '/', '/login?redirect=%2Ftrade-log']) {
      const res = await rawRequest(app.url + route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type'), route).toMatch(/^text\/html/);
      // The public /login comes with its page's code preloaded; the rest as built.
      const body = res.body.toString();
      const added = (line: string) => /^\s*<link rel="(?:modulepreload|preload" as="style)"/.test(line) && !indexHtml.includes(line);
      if (route.startsWith('/login'))
        expect(
          body
            .split('\n')
            .filter((line) => !added(line))
            .join('\n'),
          route,
        ).toBe(indexHtml);
      else expect(body, route).toBe(indexHtml);
      expect(res.headers.get('cache-control'), route).toBe('no-cache');
    }
  });

  it('tells a page sent with a session cookie that there is one (its data requests start with the session check), and only then', async () => {
    // (/ and /index.html are sent drawn as the dashboard's frame: see below.)
    for (const route of ['/journal', '/trade-log']) {
      const withCookie = await rawRequest(app.url + route, { headers: { cookie: 'theme=dark; better-auth.session_token=abc.def' } });
      expect(withCookie.body.toString(), route).toContain('<meta name="edgebook-session" content="present" />');
      // The page as built, with lines added right after <head> and nothing else changed.
      const full = withCookie.body.toString();
      // Signed in, the page's chunk is preloaded with the page, after the entry's preloads.
      const preloads = /((?:\n\s*<link rel="(?:modulepreload|preload" as="style)" crossorigin href="[^"]+">)*)\n\s*<\/head>/.exec(full)![1]!;
      const body = full.replace(`${preloads}\n  </head>`, '\n  </head>');
      const head = indexHtml.indexOf('<head>') + '<head>'.length;
      expect(body.startsWith(indexHtml.slice(0, head)) && body.endsWith(indexHtml.slice(head)), route).toBe(true);
      const added = body.slice(head, body.length - (indexHtml.length - head));
      expect(added, route).toMatch(/^\n\s*<meta name="edgebook-session" content="present" \/>/);
      // Signed in, /journal is the journal and /trade-log the Trade Log: each page's chunk is preloaded with the page.
      const page = route === '/trade-log' ? 'features/trade-log/trade-log-page.tsx' : 'features/journal/journal-page.tsx';
      expect(preloads, route).toContain(`<link rel="modulepreload" crossorigin href="/${manifestFile(page)}">`);
      const other = route === '/trade-log' ? 'features/journal/journal-page.tsx' : 'features/trade-log/trade-log-page.tsx';
      expect(preloads, route).not.toContain(manifestFile(other));
      expect(withCookie.headers.get('vary'), route).toMatch(/cookie/i);
      const secure = await rawRequest(app.url + route, { headers: { cookie: '__Secure-better-auth.session_token=abc' } });
      expect(secure.body.toString(), route).toContain('edgebook-session');
      for (const cookie of ['better-auth.session_token=', 'my-better-auth.session_token=abc', 'theme=dark']) {
        const without = await rawRequest(app.url + route, { headers: { cookie } });
        expect(without.body.toString(), `${route} ${cookie}`).toBe(indexHtml);
      }
    }
  });

  it('sends a public page with its own code preloaded, signed in or not; without a session cookie no signed-in page', async () => {
    const loginChunk = manifest()['features/auth/login-page.tsx']!;
    for (const cookie of [undefined, 'better-auth.session_token=abc.def']) {
      const res = await rawRequest(`${app.url}/login`, cookie ? { headers: { cookie } } : undefined);
      const html = res.body.toString();
      expect(html).toContain(`<link rel="modulepreload" crossorigin href="/${loginChunk.file}">`);
      expect(html.includes('edgebook-session')).toBe(Boolean(cookie));
      // Each file once: what the entry already loads is not preloaded again.
      const hrefs = [...html.matchAll(/href="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
      expect(new Set(hrefs).size).toBe(hrefs.length);
    }
  });

  it('sends /intro drawn, with its styles, and its code started by a module of its own after the first paint', async () => {
    const res = await rawRequest(`${app.url}/intro`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    const html = res.body.toString();
    expect(html).toContain('<title>Edgebook · Self-hosted trading journal</title>');
    expect(html).toMatch(/<h1[^>]*>Find your edge in your own numbers<\/h1>/);
    for (const css of manifest()['features/intro/intro-page.tsx']!.css ?? [])
      expect(html).toContain(`<link rel="stylesheet" crossorigin href="/${css}">`);
    // No app script before the paint: only the boot script, which imports the app's entry (the one index.html runs).
    expect(html).not.toContain('modulepreload');
    const boot = /<script src="(\/assets\/prerender-boot-[0-9a-f]{8}\.js)"><\/script>/.exec(html)![1]!;
    const bootJs = (await rawRequest(app.url + boot)).body.toString();
    expect(bootJs).toContain(`import(${JSON.stringify(entryScript())})`);
    expect([...html.matchAll(/<script/g)]).toHaveLength(1);
  });

  it('sends / drawn as the dashboard frame (shell and heading, inert, no figures) only to a browser with a session cookie', async () => {
    const signedIn = (await rawRequest(`${app.url}/`, { headers: { cookie: 'better-auth.session_token=abc.def' } })).body.toString();
    expect(signedIn).toContain('data-prerendered="dashboard"');
    expect(signedIn).toContain('<title>Dashboard · Edgebook</title>');
    expect(signedIn).toMatch(/<div id="root"><div inert aria-hidden="true">/);
    // Nothing a test (or a trader's script) would take for the working page.
    expect(signedIn).not.toContain('data-testid');
    expect(signedIn).toMatch(/<h1[^>]*>Dashboard<\/h1>/);
    expect(signedIn).toContain('aria-label="Main"');
    // The frame is the same for every trader: no amount, no name, no clock (it was drawn at build time).
    expect(signedIn).not.toMatch(/\$\d|top-bar-time/);
    // Its data requests start with the session check (the hint), and its code after the first paint (the boot module).
    expect(signedIn).toContain('<meta name="edgebook-session" content="present" />');
    expect(signedIn).toMatch(/<script src="\/assets\/prerender-boot-[0-9a-f]{8}\.js"><\/script>\n\s*<\/head>/);
    expect([...signedIn.matchAll(/<script/g)]).toHaveLength(1);
    const index = (await rawRequest(`${app.url}/index.html`, { headers: { cookie: 'better-auth.session_token=abc.def' } })).body.toString();
    expect(index).toContain('data-prerendered="dashboard"');

    // Without a session cookie the app goes to /intro or /login: no dashboard is drawn; nor on the other pages.
    const signedOut = (await rawRequest(`${app.url}/`)).body.toString();
    expect(signedOut).not.toContain('data-prerendered');
    expect(signedOut).toContain('<div id="root"></div>');
    const tradeLog = (await rawRequest(`${app.url}/trade-log`, { headers: { cookie: 'better-auth.session_token=abc.def' } })).body.toString();
    expect(tradeLog).not.toContain('data-prerendered');
  });

  it('caches hashed assets for a year and other files not at all', async () => {
    const js = await rawRequest(app.url + entryScript());
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect(js.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');

    const favicon = await rawRequest(app.url + '/favicon.svg');
    expect(favicon.status).toBe(200);
    expect(favicon.headers.get('cache-control')).not.toMatch(/immutable|max-age=[1-9]/);
  });

  it('answers a missing hashed asset with 404, not index.html (a stale tab after a deploy must fail loudly)', async () => {
    const res = await rawRequest(app.url + '/assets/index-gone1234.js');
    expect(res.status).toBe(404);
    expect(res.body.toString()).not.toContain('<div id="root">');
  });

  it('compresses JavaScript when the browser accepts it, and only then', async () => {
    const file = fs.readFileSync(path.join(webRoot, entryScript()));
    const gzip = await rawRequest(app.url + entryScript(), { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gzip.body.length).toBeLessThan(file.length / 2);
    expect(zlib.gunzipSync(gzip.body).equals(file)).toBe(true);

    const best = await rawRequest(app.url + entryScript(), { headers: { 'accept-encoding': 'br, gzip, deflate' } });
    expect(['br', 'gzip', 'deflate']).toContain(best.headers.get('content-encoding'));
    expect(best.body.length).toBeLessThan(file.length / 2);

    const plain = await rawRequest(app.url + entryScript(), { headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.body.equals(file)).toBe(true);
  });

  it('sends hashed files compressed once, whole and with their length; HEAD without a body; deflate-only browsers still served', async () => {
    const css = manifest()['index.html']!.css![0]!;
    for (const asset of [entryScript(), `/${css}`]) {
      const file = fs.readFileSync(path.join(webRoot, asset));
      const first = await rawRequest(app.url + asset, { headers: { 'accept-encoding': 'gzip, deflate, br' } });
      const second = await rawRequest(app.url + asset, { headers: { 'accept-encoding': 'gzip' } });
      expect(first.headers.get('content-encoding'), asset).toBe('gzip');
      // Kept in memory, not streamed through a compressor: the length is known before the body.
      expect(Number(first.headers.get('content-length')), asset).toBe(first.body.length);
      expect(first.headers.get('vary'), asset).toMatch(/accept-encoding/i);
      expect(first.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(second.body.equals(first.body), asset).toBe(true);
      expect(zlib.gunzipSync(first.body).equals(file), asset).toBe(true);
      const head = await rawRequest(app.url + asset, { method: 'HEAD', headers: { 'accept-encoding': 'gzip' } });
      expect(head.status).toBe(200);
      expect(head.headers.get('content-length')).toBe(first.headers.get('content-length'));
      expect(head.body.length).toBe(0);
    }
    const deflate = await rawRequest(app.url + entryScript(), { headers: { 'accept-encoding': 'deflate' } });
    expect(deflate.headers.get('content-encoding')).toBe('deflate');
    expect(zlib.inflateSync(deflate.body).equals(fs.readFileSync(path.join(webRoot, entryScript())))).toBe(true);
    // Only names of files in the assets folder: a path out of it is not read.
    for (const probe of ['/assets/..%2Findex.html', '/assets/.vite%2Fmanifest.json', '/assets/..%2F..%2Fpackage.json']) {
      const res = await rawRequest(app.url + probe, { headers: { 'accept-encoding': 'gzip' } });
      expect(res.status, probe).toBe(404);
    }
  });

  it('compresses a large JSON answer in one piece with its length, and leaves small ones and other browsers alone', async () => {
    const trader = app.client();
    await trader.signUp(uniqueEmail());
    const account = (await trader.post('/api/accounts', { name: 'Compressed' })).body as { id: string };
    const trades = Array.from({ length: 30 }, (_, i) => ({
      id: `c-${i}`,
      date: '2026-03-02',
      period: 'AM',
      symbol: 'NQ',
      pnl: i - 15,
      notes: `trade ${i}`,
    }));
    expect((await trader.post('/api/trades/import', { account_id: account.id, trades })).status).toBe(201);
    const get = (path: string, headers: Record<string, string>) =>
      rawRequest(app.url + path, { headers: { cookie: trader.cookieHeader, ...headers }, localAddress: trader.address });

    const plain = await get('/api/trades?limit=30', {});
    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(plain.headers.get('vary')).toMatch(/accept-encoding/i);
    const list = JSON.parse(plain.body.toString()) as { trades: unknown[] };
    expect(list.trades).toHaveLength(30);
    expect(plain.body.length).toBeGreaterThan(4096);

    const gzip = await get('/api/trades?limit=30', { 'accept-encoding': 'gzip, deflate, br' });
    expect(gzip.headers.get('content-encoding')).toBe('gzip');
    expect(gzip.headers.get('content-length')).toBe(String(gzip.body.length));
    expect(gzip.headers.get('transfer-encoding')).toBeNull();
    expect(gzip.body.length).toBeLessThan(plain.body.length / 3);
    expect(JSON.parse(zlib.gunzipSync(gzip.body).toString())).toEqual(list);

    const deflate = await get('/api/trades?limit=30', { 'accept-encoding': 'gzip;q=0, deflate' });
    expect(deflate.headers.get('content-encoding')).toBe('deflate');
    expect(JSON.parse(zlib.inflateSync(deflate.body).toString())).toEqual(list);

    const small = await get('/api/health', { 'accept-encoding': 'gzip' });
    expect(small.headers.get('content-encoding')).toBeNull();
    expect(JSON.parse(small.body.toString())).toMatchObject({ ok: true });
  });

  it('keeps a trader’s API answers out of every cache: no-store on data, session and error answers', async () => {
    const trader = app.client();
    await trader.signUp(uniqueEmail());
    const answers = [
      await trader.request('GET', '/api/trades?limit=5'),
      await trader.request('GET', '/api/auth/get-session'),
      await trader.request('POST', '/api/trades', { symbol: 'NQ' }),
      await app.client().request('GET', '/api/trades'),
      await trader.request('GET', '/api/no-such-route'),
    ];
    expect(answers.map((r) => r.status)).toEqual([200, 200, 400, 401, 404]);
    for (const res of answers) expect(res.headers.get('cache-control'), `${res.status}`).toBe('no-store');
  });

  it('sends a Content-Security-Policy without inline scripts that the built app can run under', async () => {
    for (const url of ['/trade-log', entryScript(), '/api/health']) {
      const res = await rawRequest(app.url + url);
      const csp = res.headers.get('content-security-policy');
      expect(csp, url).toBeTruthy();
      const directives = new Map(
        csp!
          .split(';')
          .map((d) => d.trim().split(/\s+/))
          .map(([name, ...values]) => [name!, values] as const),
      );
      const scriptSrc = directives.get('script-src') ?? directives.get('default-src');
      expect(scriptSrc, url).toBeDefined();
      expect(scriptSrc, url).not.toContain("'unsafe-inline'");
      expect(scriptSrc, url).not.toContain("'unsafe-eval'");
      expect(directives.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(directives.get('object-src'), url).toEqual(["'none'"]);
      expect(res.headers.get('x-content-type-options'), url).toBe('nosniff');
    }
    // The policy is only honest if the built page has no inline script for it to block.
    const scripts = [...indexHtml.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\ssrc="\/assets\//);
      expect(body!.trim()).toBe('');
    }
    expect(indexHtml).not.toMatch(/\son[a-z]+="/);
  });
});
