import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, backends, rawRequest, startTestApp, uniqueEmail, type TestApp } from '../support/app';
import { createAccount, newTrader } from './trades-support';

/**
 * One request must not stall the server, another site must not write through the
 * trader's cookie, and no body may be larger than its route needs.
 */

/**
 * Streams `megabytes` of a JSON-looking body without announcing its length, until the server answers or closes the
 * connection. A server that stops reading may close before the client sees its 413 (status 0 then).
 */
function streamBody(url: string, headers: Record<string, string>, megabytes: number): Promise<{ status: number; sentBytes: number }> {
  return new Promise((resolve) => {
    let sent = 0;
    let answered = false;
    const req = http.request(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
      answered = true;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0, sentBytes: sent }));
    });
    req.on('error', () => {
      if (!answered) resolve({ status: 0, sentBytes: sent });
    });
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const pump = () => {
      while (!answered && sent < megabytes * 1024 * 1024) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', pump);
      }
      req.end();
    };
    req.write('{"name":"');
    pump();
  });
}

describe.each(backends())('request hardening on %s', (backend) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ backend, env: { AUTH_RATE_LIMIT: '1000' } });
  });
  afterAll(() => app?.close());

  describe('cross-site requests (CSRF)', () => {
    const otherOrigin = () => app.url.replace(/:(\d+)$/, (_, port) => `:${Number(port) + 1}`);

    it('refuses a write whose Origin is another site, or another port of the same site, and writes nothing', async () => {
      const trader = await newTrader(app);
      for (const origin of ['https://evil.example', otherOrigin(), 'null']) {
        const res = await trader.request('POST', '/api/accounts', { name: `from ${origin}` }, { origin });
        expect(res.status, origin).toBe(403);
        expect((await res.json()).error).toMatch(/^origin: /);
        expect((await trader.request('DELETE', '/api/trades/00000000-0000-4000-8000-000000000000', undefined, { origin })).status).toBe(403);
      }
      // A text/plain form post (no preflight) from another port of the same site: the attack of the issue.
      const form = await trader.send('POST', '/api/accounts', JSON.stringify({ name: 'forged' }), {
        origin: otherOrigin(),
        'content-type': 'text/plain',
      });
      expect(form.status).toBe(403);
      expect((await trader.get('/api/accounts')).body).toEqual([]);
    });

    it('refuses a write that the browser marks as cross-site or same-site, when no Origin is sent', async () => {
      const trader = await newTrader(app);
      for (const site of ['cross-site', 'same-site']) {
        const res = await trader.request('POST', '/api/accounts', { name: site }, { origin: '', 'sec-fetch-site': site });
        expect(res.status, site).toBe(403);
      }
      const same = await trader.request('POST', '/api/accounts', { name: 'Mine' }, { 'sec-fetch-site': 'same-origin' });
      expect(same.status).toBe(201);
      expect((await trader.get('/api/accounts')).body.map((a: { name: string }) => a.name)).toEqual(['Mine']);
    });

    it('refuses sign-up and sign-in posted from another site', async () => {
      const email = uniqueEmail();
      const elsewhere = new ApiClient(app.url, { origin: 'https://evil.example' });
      expect((await elsewhere.signUp(email)).status).toBe(403);
      expect((await app.client().signUp(email)).status).toBe(200);
      expect((await elsewhere.signIn(email)).status).toBe(403);
    });

    it('reads nothing but JSON where JSON is expected, even from the app itself', async () => {
      const trader = await newTrader(app);
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
        const res = await trader.send('POST', '/api/accounts', JSON.stringify({ name: 'typed' }), { 'content-type': type });
        expect(res.status, type).toBe(415);
        expect((await res.json()).error).toMatch(/^content-type: /);
      }
      expect((await trader.get('/api/accounts')).body).toEqual([]);
      // Scripts and curl send no Origin: they carry no victim's cookie, and are served as before.
      const script = await trader.send('POST', '/api/accounts', JSON.stringify({ name: 'Script' }), {
        origin: '',
        'content-type': 'application/json; charset=utf-8',
      });
      expect(script.status).toBe(201);
    });
  });

  describe('body limits', () => {
    it('refuses a 2 MB JSON body with 413 before reading it, announced or streamed', async () => {
      const trader = await newTrader(app);
      const big = JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) });
      const announced = await trader.send('POST', '/api/accounts', big, { 'content-type': 'application/json' });
      expect(announced.status).toBe(413);
      expect((await announced.json()).error).toBe('body: the request body must be at most 1 MB');

      const streamed = await streamBody(
        `${app.url}/api/accounts`,
        { origin: app.url, cookie: trader.cookieHeader, 'content-type': 'application/json' },
        2,
      );
      expect(streamed.status === 413 || (streamed.status === 0 && streamed.sentBytes < 2 * 1024 * 1024), JSON.stringify(streamed)).toBe(true);
      expect((await trader.get('/api/accounts')).body).toEqual([]);
    });

    it('stops reading a 200 MB body at the limit, so the process does not grow with it', async () => {
      const trader = await newTrader(app);
      global.gc?.();
      const before = process.memoryUsage().rss;
      const results = await Promise.all(
        Array.from({ length: 4 }, () =>
          streamBody(`${app.url}/api/accounts`, { origin: app.url, cookie: trader.cookieHeader, 'content-type': 'application/json' }, 200),
        ),
      );
      for (const result of results) {
        expect([0, 413]).toContain(result.status);
        expect(result.sentBytes).toBeLessThan(100 * 1024 * 1024);
      }
      // Four bodies of 200 MB took the process to 3.6 GB before; now each stops at about 1 MB.
      expect(process.memoryUsage().rss - before).toBeLessThan(150 * 1024 * 1024);
    });

    it('stops a streamed broker file at 50 MB, and no upload is left on disk, refused or read', async () => {
      const trader = await newTrader(app);
      const account = await createAccount(trader, 'Uploads');
      // Uploads are written in a folder of the server's process, which here is this test's.
      const folder = path.join(os.tmpdir(), `edgebook-uploads-${process.pid}`);
      const files = () => (fs.existsSync(folder) ? fs.readdirSync(folder) : []);
      const url = `${app.url}/api/imports/preview?account_id=${account.id}&time_zone=America%2FNew_York`;
      const streamed = await streamBody(url, { origin: app.url, cookie: trader.cookieHeader, 'content-type': 'text/csv' }, 60);
      expect(streamed.status === 413 || (streamed.status === 0 && streamed.sentBytes < 60 * 1024 * 1024), JSON.stringify(streamed)).toBe(true);
      const read = await trader.send('POST', url.slice(app.url.length), 'symbol,side\nNQ,oops\n', { 'content-type': 'text/csv' });
      expect(read.status).toBe(400);
      await expect.poll(files, { timeout: 5000 }).toEqual([]);
    });

    it('keeps the larger limits of the routes that need them', async () => {
      const trader = await newTrader(app);
      const account = await createAccount(trader, 'Backup');
      // 3,000 trades of about 1 kB each: a 3 MB backup is over the JSON default but well within an import's limit.
      const trades = Array.from({ length: 3000 }, (_, i) => ({ id: `row-${i}`, date: '2025-03-03', period: 'AM', notes: 'n'.repeat(1000) }));
      const res = await trader.post('/api/trades/import', { account_id: account.id, trades });
      expect(res.status, JSON.stringify(res.body).slice(0, 200)).toBe(201);
      expect(res.body.imported).toBe(3000);
      // Select All of a large log posts every id.
      const ids = Array.from({ length: 60_000 }, (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);
      expect((await trader.post('/api/trades/bulk-delete', { ids })).status).toBe(200);
    });
  });

  describe('one request cannot stall the server', () => {
    async function healthLatencyDuring(work: Promise<unknown>): Promise<number> {
      const watcher = app.client();
      let worst = 0;
      let done = false;
      void work.finally(() => (done = true));
      while (!done) {
        const started = performance.now();
        await watcher.get('/api/health');
        worst = Math.max(worst, performance.now() - started);
        await new Promise((r) => setTimeout(r, 20));
      }
      return worst;
    }

    it('answers a backup row with 30,000 or 200,000 tags at once, while /api/health keeps answering', async () => {
      const trader = await newTrader(app);
      const account = await createAccount(trader, 'Tags');
      for (const count of [30_000, 200_000]) {
        const tags = Array.from({ length: count }, (_, i) => `tag-${i}`);
        const started = performance.now();
        const importing = trader.post('/api/trades/import', { account_id: account.id, trades: [{ date: '2025-03-03', period: 'AM', tags }] });
        const worstHealth = await healthLatencyDuring(importing);
        const res = await importing;
        expect(res.status).toBe(400);
        expect(res.body.error).toMatch(/^Row 1: tags/);
        // The quadratic de-duplication took 15 s for 30,000 tags and over 10 minutes for 200,000 (and the server
        // answered nothing else meanwhile); a linear pass takes well under a second, with room for a busy machine.
        expect(performance.now() - started).toBeLessThan(8000);
        expect(worstHealth).toBeLessThan(2000);
      }
    });
  });
});

describe('HTTP Strict Transport Security', () => {
  it('is sent when BASE_URL is https, and not on plain http', async () => {
    const secure = await startTestApp({ env: { BASE_URL: 'https://journal.example.com' } });
    const plain = await startTestApp();
    try {
      const res = await rawRequest(`http://127.0.0.1:${secure.server.port}/api/health`);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      const local = await rawRequest(`${plain.url}/api/health`);
      expect(local.headers.get('strict-transport-security')).toBeNull();
    } finally {
      await secure.close();
      await plain.close();
    }
  });
});
