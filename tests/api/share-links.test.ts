import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from '../../src/server/http/rate-limit';
import { backends, startTestApp, type ApiClient, type TestApp } from '../support/app';
import { createAccount, createTrade, newTrader } from './trades-support';

/**
 * Share links over HTTP on both databases, as a security feature: the secret is long and stored only hashed, a link
 * is its owner's alone to list and revoke, revoked, expired and made-up links answer alike, what a link hides is
 * nowhere in its page or preview, every text is escaped, guessing is rate-limited and link management refuses
 * cross-site requests.
 */
describe.each(backends())('share links on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceTrade: string;
  let accountName: string;

  const at = (day: string, time: string) => `${day}T${time}:00-05:00`;
  /** A page as a signed-out visitor reads it, from an address of its own (so no rate limit is shared). */
  const visit = async (path: string, visitor = app.client()) => {
    const res = await visitor.request('GET', path);
    const body = await res.text();
    // The page names its own address, whose random token may spell anything ('NQ' one time in a hundred):
    // what a page must not show is looked for in `text`, the page without its token.
    const token = path.split('/')[2] ?? '';
    return { status: res.status, headers: res.headers, body, text: token ? body.split(token).join('') : body };
  };
  const share = async (client: ApiClient, body: Record<string, unknown>) => {
    const res = await client.post('/api/share-links', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body as { id: string; url: string; views: number; title: string; revoked_at: string | null; expires_at: string | null };
  };
  const pathOf = (url: string) => new URL(url).pathname;
  const tokenOf = (url: string) => pathOf(url).slice('/s/'.length);
  const rows = async (query: ReturnType<typeof sql>) =>
    ((await app.server.database.db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'share-alice'), newTrader(app, 'share-bob')]);
    accountName = `Apex Funded 77 ${crypto.randomBytes(3).toString('hex')}`;
    const account = await createAccount(alice, accountName);
    // +$4,321.75 on a $1,000 plan: +4.32R. Long NQ from 18000 to 18216.09 (+1.20%).
    const trade = await createTrade(alice, {
      account_id: account.id,
      date: '2026-03-03',
      symbol: 'NQ',
      side: 'Long',
      quantity: 1,
      entry_price: 18000,
      exit_price: 18216.09,
      entry_time: at('2026-03-03', '09:40'),
      exit_time: at('2026-03-03', '10:05'),
      risk_amount: 1000,
      pnl: 4321.75,
      commission: 12.34,
      notes: '<script>alert("x")</script><img src=x onerror=alert(1)> "quoted" & done',
    });
    aliceTrade = trade.id;
    // The same day: -0.5R on a $1,000 plan. The day after: a trade the day's link must not show.
    await createTrade(alice, {
      account_id: account.id,
      date: '2026-03-03',
      symbol: 'ES',
      side: 'Short',
      entry_time: at('2026-03-03', '11:00'),
      risk_amount: 1000,
      pnl: -500,
    });
    await createTrade(alice, {
      account_id: account.id,
      date: '2026-03-04',
      symbol: 'YM',
      side: 'Long',
      entry_time: at('2026-03-04', '09:31'),
      risk_amount: 1000,
      pnl: 777.77,
    });
  });
  afterAll(() => app?.close());

  it('makes, lists and revokes links; a view is counted, and revocation stops the page at once', async () => {
    const link = await share(alice, { kind: 'trade', target: aliceTrade, expires: 'week' });
    expect(link.url).toMatch(new RegExp(`^${app.url}/s/[A-Za-z0-9_-]{43}$`));
    expect(link.title).toBe('NQ Long, 2026-03-03');
    const week = new Date(link.expires_at!).getTime() - Date.now();
    expect(week).toBeGreaterThan(6.9 * 86_400_000);
    expect(week).toBeLessThanOrEqual(7 * 86_400_000);

    const listed = (await alice.get('/api/share-links')).body as Array<Record<string, unknown>>;
    const mine = listed.find((l) => l.id === link.id)!;
    expect(mine).toMatchObject({ kind: 'trade', target: aliceTrade, views: 0, last_viewed_at: null, revoked_at: null });
    // The secret was shown once; the list never has it.
    expect(JSON.stringify(listed)).not.toContain(tokenOf(link.url));

    expect((await visit(pathOf(link.url))).status).toBe(200);
    expect((await visit(pathOf(link.url))).status).toBe(200);
    // The preview image is not a view.
    expect((await visit(`${pathOf(link.url)}/preview`)).status).toBe(200);
    const seen = ((await alice.get('/api/share-links')).body as Array<Record<string, unknown>>).find((l) => l.id === link.id)!;
    expect(seen.views).toBe(2);
    expect(Date.now() - new Date(seen.last_viewed_at as string).getTime()).toBeLessThan(60_000);

    expect((await alice.delete(`/api/share-links/${link.id}`)).status).toBe(204);
    expect((await visit(pathOf(link.url))).status).toBe(404);
    expect((await visit(`${pathOf(link.url)}/preview`)).status).toBe(404);
    const revoked = ((await alice.get('/api/share-links')).body as Array<Record<string, unknown>>).find((l) => l.id === link.id)!;
    expect(revoked.revoked_at).not.toBeNull();
    expect(revoked.views).toBe(2);
  });

  it('a token has 256 random bits, and the database keeps only its SHA-256', async () => {
    const links = await Promise.all([1, 2, 3].map(() => share(alice, { kind: 'trade', target: aliceTrade })));
    const tokens = links.map((l) => tokenOf(l.url));
    expect(new Set(tokens).size).toBe(3);
    for (const token of tokens) expect(Buffer.from(token, 'base64url').length).toBe(32);
    for (const [i, link] of links.entries()) {
      const [row] = await rows(sql`select * from share_links where id = ${link.id}`);
      const hash = crypto.createHash('sha256').update(tokens[i]!).digest('hex');
      expect(row!.token_hash).toBe(hash);
      expect(row!.token_lookup).toBe(hash.slice(0, 16));
      expect(JSON.stringify(row)).not.toContain(tokens[i]);
    }
    // The secret is nowhere in the table, nor in the server's log.
    const all = JSON.stringify(await rows(sql`select * from share_links`));
    for (const token of tokens) expect(all).not.toContain(token);
    expect(JSON.stringify(app.logs)).not.toContain(tokens[0]);
  });

  it("another trader can neither list, revoke nor share the first trader's links and trades", async () => {
    const link = await share(alice, { kind: 'trade', target: aliceTrade });
    const bobsList = (await bob.get('/api/share-links')).body as Array<{ id: string }>;
    expect(bobsList.map((l) => l.id)).not.toContain(link.id);
    const refused = await bob.delete(`/api/share-links/${link.id}`);
    expect(refused.status).toBe(404);
    expect(refused.body).toEqual({ error: 'Share link not found' });
    expect((await visit(pathOf(link.url))).status).toBe(200);

    const stolen = await bob.post('/api/share-links', { kind: 'trade', target: aliceTrade });
    expect(stolen.status).toBe(404);
    expect(stolen.body).toEqual({ error: 'Trade not found' });
    // Bob's link to a day shows Bob's trades of that day (none), never Alice's.
    const bobsDay = await share(bob, { kind: 'day', target: '2026-03-03' });
    const page = await visit(pathOf(bobsDay.url));
    expect(page.status).toBe(200);
    expect(page.text).not.toContain('NQ');
    expect(page.body).toMatch(/<span>Trades<\/span><b>0<\/b>/);

    const stranger = app.client();
    expect((await stranger.get('/api/share-links')).status).toBe(401);
    expect((await stranger.post('/api/share-links', { kind: 'trade', target: aliceTrade })).status).toBe(401);
    expect((await stranger.delete(`/api/share-links/${link.id}`)).status).toBe(401);
  });

  it('unknown, malformed, revoked and expired links get the very same answer', async () => {
    const revoked = await share(alice, { kind: 'trade', target: aliceTrade });
    expect((await alice.delete(`/api/share-links/${revoked.id}`)).status).toBe(204);
    const expired = await share(alice, { kind: 'day', target: '2026-03-03', expires: 'day' });
    expect((await visit(pathOf(expired.url))).status).toBe(200);
    // A day later: its expiry moved into the past.
    await rows(sql`update share_links set expires_at = now() - interval '1 second' where id = ${expired.id}`);
    const deletedTrade = await createTrade(alice, { date: '2026-03-05', symbol: 'RTY', pnl: 1 });
    const orphan = await share(alice, { kind: 'trade', target: deletedTrade.id });
    expect((await alice.delete(`/api/trades/${deletedTrade.id}`)).status).toBeLessThan(300);

    const paths = [
      `/s/${crypto.randomBytes(32).toString('base64url')}`,
      '/s/not-a-token',
      `/s/${'A'.repeat(43)}`,
      pathOf(revoked.url),
      pathOf(expired.url),
      pathOf(orphan.url),
      `${pathOf(revoked.url)}/preview`,
      `${pathOf(expired.url)}/preview`,
    ];
    const answers = await Promise.all(paths.map((p) => visit(p)));
    const [first] = answers;
    expect(first!.status).toBe(404);
    expect(first!.body).toContain('Link not found');
    for (const answer of answers) {
      expect(answer.status).toBe(404);
      expect(answer.body).toBe(first!.body);
      expect(answer.headers.get('content-type')).toBe(first!.headers.get('content-type'));
      expect(answer.headers.get('cache-control')).toBe('no-store');
      expect(answer.headers.get('x-robots-tag')).toContain('noindex');
    }
  });

  it('hiding amounts and account names leaves no dollar figure and no account name in the page or its preview', async () => {
    const hidden = await share(alice, { kind: 'trade', target: aliceTrade, hide_amounts: true, hide_accounts: true });
    const page = await visit(pathOf(hidden.url));
    expect(page.status).toBe(200);
    expect(page.body).toContain('+4.32R');
    expect(page.body).toContain('+1.20%');
    const preview = await visit(`${pathOf(hidden.url)}/preview`);
    expect(preview.headers.get('content-type')).toContain('image/svg+xml');
    expect(preview.body).toContain('+4.32R');
    for (const text of [page.body, preview.body]) {
      expect(text).not.toContain('$');
      expect(text).not.toMatch(/4,?321/);
      expect(text).not.toMatch(/12\.34/);
      expect(text).not.toMatch(/1,?000\.00/);
      expect(text).not.toContain(accountName);
    }

    // The same trade shared with nothing hidden shows both: the checks above would see them.
    const open = await visit(pathOf((await share(alice, { kind: 'trade', target: aliceTrade })).url));
    expect(open.body).toContain('+$4,321.75');
    expect(open.body).toContain(accountName);

    const day = await share(alice, { kind: 'day', target: '2026-03-03', hide_amounts: true, hide_accounts: true });
    const dayPage = await visit(pathOf(day.url));
    expect(dayPage.body).toContain('+3.82R');
    expect(dayPage.body).toMatch(/<span>Trades<\/span><b>2<\/b>/);
    expect(dayPage.body).toMatch(/<span>Win rate<\/span><b>50\.0%<\/b>/);
    expect(dayPage.text).not.toContain('YM');
    expect(dayPage.text).not.toContain('$');
    expect(dayPage.text).not.toContain(accountName);
    const openDay = await visit(pathOf((await share(alice, { kind: 'day', target: '2026-03-03' })).url));
    expect(openDay.body).toContain('+$3,821.75');
    expect(openDay.body).toContain(accountName);
  });

  it("a prop account's status: progress in percent, and with amounts hidden no dollar figure and no account name", async () => {
    const name = `Topstep Eval ${crypto.randomBytes(3).toString('hex')}`;
    const prop = await createAccount(alice, name, { kind: 'evaluation', size: 50000, starting_balance: '50000', firm: 'Topstep' });
    // Without a rule set there is no status to share: the link answers like an unknown one.
    const early = await share(alice, { kind: 'prop', target: prop.id, hide_amounts: true });
    expect((await visit(pathOf(early.url))).status).toBe(404);
    expect((await alice.put(`/api/prop/accounts/${prop.id}/rules`, { rules: { profitTargetCents: 300_000 } })).status).toBe(200);
    // +$1,234.56 of a $3,000 target on a $50,000 account: +2.47%, 41% of the way.
    await createTrade(alice, { account_id: prop.id, date: '2026-03-03', symbol: 'NQ', pnl: 1234.56 });

    const hidden = await share(alice, { kind: 'prop', target: prop.id, hide_amounts: true, hide_accounts: true });
    expect(hidden.title).toBe(`Prop status: ${name}`);
    const page = await visit(pathOf(hidden.url));
    expect(page.status).toBe(200);
    expect(page.body).toContain('+2.47%');
    expect(page.body).toContain('41%');
    expect(page.body).toContain('Topstep Evaluation account');
    const preview = await visit(`${pathOf(hidden.url)}/preview`);
    for (const text of [page.body, preview.body]) {
      expect(text).not.toContain('$');
      expect(text).not.toMatch(/1,?234/);
      expect(text).not.toMatch(/51,?234/);
      expect(text).not.toContain(name);
    }
    const open = await visit(pathOf((await share(alice, { kind: 'prop', target: prop.id })).url));
    expect(open.body).toContain('+$1,234.56');
    expect(open.body).toContain(name);

    // Another trader's account cannot be shared.
    const stolen = await bob.post('/api/share-links', { kind: 'prop', target: prop.id });
    expect(stolen.status).toBe(404);
  });

  it("a Reports view with its filters: the Overview's figures of the filter's trades, amounts and account names hidden", async () => {
    const accountId = ((await alice.get('/api/accounts')).body as Array<{ id: string; name: string }>).find((a) => a.name === accountName)!.id;
    const query = `range=custom&from=2026-03-03&to=2026-03-04&account=${accountId}&evil=%3Cscript%3E`;
    const hidden = await share(alice, { kind: 'report', target: query, hide_amounts: true, hide_accounts: true });
    // Kept in the filter's own form: what is no filter is dropped.
    expect((hidden as unknown as { target: string }).target).not.toContain('evil');
    const page = await visit(pathOf(hidden.url));
    expect(page.status).toBe(200);
    // NQ +4.32R and ES -0.50R on the 3rd, YM +0.78R on the 4th: 3 trades, 2 days, 2 of 3 won.
    expect(page.body).toMatch(/<span>Trades<\/span><b>3<\/b>/);
    expect(page.body).toMatch(/<span>Trading days<\/span><b>2<\/b>/);
    expect(page.body).toMatch(/<span>Win rate<\/span><b>66\.7%<\/b>/);
    expect(page.body).toMatch(/<span>Total R<\/span><b>\+4\.60R<\/b>/);
    const preview = await visit(`${pathOf(hidden.url)}/preview`);
    for (const text of [page.body, preview.body]) {
      expect(text).not.toContain('$');
      expect(text).not.toMatch(/4,?599/);
      expect(text).not.toContain(accountName);
      expect(text).not.toContain('<script');
    }
    const open = await visit(pathOf((await share(alice, { kind: 'report', target: query })).url));
    expect(open.body).toContain('+$4,599.52');
    expect(open.body).toContain(accountName);
    // Bob's link with Alice's account in its filter reads Bob's trades only: none.
    const bobs = await visit(pathOf((await share(bob, { kind: 'report', target: query })).url));
    expect(bobs.body).toMatch(/<span>Trades<\/span><b>0<\/b>/);
    expect(bobs.text).not.toContain(accountName);
  });

  it('a playbook: its rules and its figures in R and percent, its text escaped, no dollar figure when hidden', async () => {
    const created = await alice.post('/api/playbooks', {
      name: `Opening range ${crypto.randomBytes(3).toString('hex')}`,
      description: '<b onmouseover="x">Break</b> of the first 5 minutes',
      rules: [{ text: 'Wait for the retest' }, { text: 'Stop below the range' }],
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const playbook = created.body as { id: string; name: string };
    // +$600 on a $300 plan (+2R) and -$300 on a $300 plan (-1R), no rule ticked: 50.0%, +0.50R a trade, +$300.00.
    await createTrade(alice, { date: '2026-03-05', symbol: 'MNQ', playbook_id: playbook.id, risk_amount: 300, pnl: 600 });
    await createTrade(alice, { date: '2026-03-05', symbol: 'MNQ', playbook_id: playbook.id, risk_amount: 300, pnl: -300 });

    const hidden = await share(alice, { kind: 'playbook', target: playbook.id, hide_amounts: true });
    expect(hidden.title).toBe(`Playbook: ${playbook.name}`);
    const page = await visit(pathOf(hidden.url));
    expect(page.status).toBe(200);
    expect(page.body).toContain(`<h1>${playbook.name}</h1>`);
    expect(page.body).toContain('<li>Wait for the retest</li>');
    expect(page.body).toMatch(/<span>Win rate<\/span><b>50\.0%<\/b>/);
    expect(page.body).toMatch(/<span>Expectancy<\/span><b>\+0\.50R<\/b>/);
    expect(page.body).toContain('&lt;b onmouseover=&quot;x&quot;&gt;Break&lt;/b&gt;');
    expect(page.text).not.toContain('<b onmouseover');
    expect(page.text).not.toContain('$');
    expect(page.text).not.toMatch(/300\.00/);
    const open = await visit(pathOf((await share(alice, { kind: 'playbook', target: playbook.id })).url));
    expect(open.body).toContain('+$300.00');

    expect((await bob.post('/api/share-links', { kind: 'playbook', target: playbook.id })).status).toBe(404);
    // A deleted playbook's link answers like an unknown one.
    expect((await alice.delete(`/api/playbooks/${playbook.id}`)).status).toBeLessThan(300);
    const gone = await visit(pathOf(hidden.url));
    expect(gone.status).toBe(404);
    expect(gone.body).toContain('Link not found');
  });

  it("notes only when chosen, and every trader's text escaped", async () => {
    const without = await visit(pathOf((await share(alice, { kind: 'trade', target: aliceTrade })).url));
    expect(without.text).not.toContain('alert');

    const withNotes = await visit(pathOf((await share(alice, { kind: 'trade', target: aliceTrade, include_notes: true })).url));
    expect(withNotes.body).toContain(
      '&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&lt;img src=x onerror=alert(1)&gt; &quot;quoted&quot; &amp; done',
    );
    expect(withNotes.text).not.toMatch(/<script/i);
    expect(withNotes.text).not.toMatch(/<img/i);
  });

  it('a shared page is not indexed, not cached, names no referrer, and has its preview for chat apps', async () => {
    const link = await share(alice, { kind: 'trade', target: aliceTrade, hide_amounts: true });
    const page = await visit(pathOf(link.url));
    expect(page.headers.get('x-robots-tag')).toContain('noindex');
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.headers.get('referrer-policy')).toBe('no-referrer');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).toContain(`<meta property="og:image" content="${link.url}/preview">`);
    expect(page.body).toContain('<meta property="og:title" content="NQ Long · 2026-03-03">');
    // Drawn by the server without the app: no script at all.
    expect(page.text).not.toMatch(/<script/i);
  });

  it('refuses cross-site requests to make or revoke links', async () => {
    const before = ((await alice.get('/api/share-links')).body as unknown[]).length;
    const forged = await alice.request('POST', '/api/share-links', { kind: 'trade', target: aliceTrade }, { origin: 'https://evil.example' });
    expect(forged.status).toBe(403);
    expect((await forged.json()).code).toBe('cross-origin');
    const viaSite = await alice.request(
      'POST',
      '/api/share-links',
      { kind: 'trade', target: aliceTrade },
      { origin: '', 'sec-fetch-site': 'cross-site' },
    );
    expect(viaSite.status).toBe(403);
    expect(((await alice.get('/api/share-links')).body as unknown[]).length).toBe(before);

    const link = await share(alice, { kind: 'trade', target: aliceTrade });
    const revoke = await alice.request('DELETE', `/api/share-links/${link.id}`, undefined, { origin: 'https://evil.example' });
    expect(revoke.status).toBe(403);
    expect((await visit(pathOf(link.url))).status).toBe(200);
  });

  it('checks what a link is made of', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ kind: 'mentor', target: 'x' }, /kind/],
      [{ kind: 'report', target: 'x'.repeat(5000) }, /^target: /],
      [{ kind: 'prop', target: '2026-03-03' }, /^target: /],
      [{ kind: 'trade', target: 'not-an-id' }, /^target: /],
      [{ kind: 'day', target: '2026-02-30' }, /^target: /],
      [{ kind: 'day', target: '2026-03-03', expires: 'month' }, /^expires: /],
      [{ kind: 'day', target: '2026-03-03', user_id: 'someone' }, /user_id/],
    ];
    for (const [body, message] of cases) {
      const res = await alice.post('/api/share-links', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    const never = await share(alice, { kind: 'day', target: '2026-03-03', expires: 'never' });
    expect(never.expires_at).toBeNull();
  });

  it('limits guesses per client address', async () => {
    const guesser = app.client();
    const statuses: number[] = [];
    for (let i = 0; i < 32; i++) statuses.push((await visit(`/s/${crypto.randomBytes(32).toString('base64url')}`, guesser)).status);
    expect(statuses.slice(0, 30).every((s) => s === 404)).toBe(true);
    expect(statuses.slice(30)).toEqual([429, 429]);
    const limited = await guesser.request('GET', `/s/${crypto.randomBytes(32).toString('base64url')}`);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another address is not held up by it.
    const link = await share(alice, { kind: 'trade', target: aliceTrade });
    expect((await visit(pathOf(link.url))).status).toBe(200);
  });
});

describe('the shared pages’ rate limiter', () => {
  it('allows a burst, then one request per refill, per key, and forgets the oldest keys beyond its bound', () => {
    const limiter = createMemoryRateLimiter({ capacity: 2, refillMs: 1_000, maxKeys: 2 });
    expect([limiter.take('a', 0), limiter.take('a', 0)]).toEqual([0, 0]);
    expect(limiter.take('a', 0)).toBe(1);
    expect(limiter.take('a', 500)).toBe(1);
    // Half a token was back at 500 ms, the whole one at 1 s.
    expect(limiter.take('a', 1_000)).toBe(0);
    expect(limiter.take('a', 1_000)).toBe(1);
    expect(limiter.take('b', 1_000)).toBe(0);
    // A third key pushes out the least recently seen one ('a'), which starts again with a full bucket.
    expect(limiter.take('c', 1_000)).toBe(0);
    expect([limiter.take('a', 1_000), limiter.take('a', 1_000)]).toEqual([0, 0]);
  });
});
