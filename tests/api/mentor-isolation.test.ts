import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getTodayInZone } from '../../src/domain/dates';
import { ownedTables } from '../../src/server/db/schema';
import { backends, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { fieldsOf, NIL, send, startWalkedApp, type Change, type Endpoint, type WalkedApp } from './endpoints-support';
import { PNG_BYTES } from './notes-support';
import { createAccount, createTrade } from './trades-support';

/**
 * The cross-tenant sweep with a mentor as the attacker, on both databases. Trader T shares account A with mentor M and
 * keeps account B to themselves; trader U never invited M. M, signed in as themselves, calls every endpoint of the
 * walk's table (endpoints-support.ts, which fails when the app has a route it does not list) with T's and U's ids in
 * its paths, queries, bodies and forms, and every mentor route with T's and U's trader ids. No answer may carry text of
 * B or of U (names, notes, symbols, amounts planted for the purpose), no mentor answer may move when B's or U's data
 * changes, and no write may change a row of T's or U's but M's own comment on a trade of A or a day of T's.
 *
 * New routes join the sweep by being listed in the walk's table: their ids are the walk's `ids`, which the sweep swaps
 * for T's and U's, and their id fields are found by name in their contract schemas.
 */

type Victim = 'A' | 'B' | 'U';
/** What each victim set puts in the walk's ids (same names), plus the days and file names to send where no id goes. */
interface Planted {
  ids: Record<string, string>;
  days: string[];
  files: string[];
}

/** Text planted in T's and U's data; none of it is anything an answer could say by chance. */
const MARK = {
  A: ['zqa', '1357.91', '135791'],
  B: ['zqb', '4321.09', '432109', '2468.13', '246813', '987600', '9,876.00', '66.13', '975.31', '97531'],
  U: ['zqu', '8765.43', '876543', '975.32', '97532'],
  /** T's own things a mentor is never shown: tasks, folders, tags, links, views, chat, free notes. */
  T: ['zqt-private'],
  /** T's daily journal and playbooks: shown to a mentor whose grant shares the journal, never through a trader route. */
  shared: ['zqt-journal', 'zqt-playbook'],
} as const;

const DAY = '2025-03-03';
/** A day only B traded on: a mentor's journal must not list it. */
const B_ONLY_DAY = '2025-03-05';
const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Which of the walk's ids a field of a contract names, by its name. */
function kindOfField(field: string): string | null {
  if (/^account(_id|_ids)?$/.test(field)) return 'account';
  if (/^(trade_id|tradeId|ids|target)$/.test(field)) return 'trade';
  if (field === 'note_id') return 'note';
  if (field === 'playbook_id') return 'playbook';
  if (field === 'folder_id') return 'folder';
  if (field === 'sessionId') return 'session';
  if (field === 'tag_ids') return 'tag';
  if (/(^|_)date$|^day$/.test(field)) return 'day';
  return null;
}

const found = (text: string, marks: readonly string[]) => marks.filter((m) => text.toLowerCase().includes(m.toLowerCase()));

describe.each(backends())('a mentor as the attacker on %s', (backend) => {
  let walked: WalkedApp;
  let app: TestApp;
  let endpoints: Record<string, Endpoint>;
  /** The walk's own ids, kept to restore and to tell an id param from another value. */
  let walkerIds: Record<string, string>;
  let t: { client: ApiClient; id: string };
  let u: { client: ApiClient; id: string };
  let m: { client: ApiClient; id: string; email: string };
  let mAccount: string;
  let mTrade: string;
  const planted = {} as Record<Victim, Planted>;
  let tradesOfA: string[];

  const db = () => app.server.database;
  const rows = async (query: ReturnType<typeof sql>) => ((await db().db.execute(query)) as unknown as { rows: Array<Record<string, unknown>> }).rows;
  const ok = (res: { status: number; body: unknown }, status = [200, 201]) => {
    expect(status, JSON.stringify(res.body)).toContain(res.status);
    return res.body as any;
  };
  async function signedUp(prefix: string) {
    const client = app.client();
    const email = uniqueEmail(prefix);
    expect((await client.signUp(email)).status).toBe(200);
    const [row] = await rows(sql`select id from "user" where email = ${email}`);
    return { client, id: String(row!.id), email };
  }
  async function upload(client: ApiClient, target: Record<string, string>, caption: string) {
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(PNG_BYTES)], { type: 'image/png' }), 'chart.png');
    for (const [key, value] of Object.entries({ ...target, caption })) form.set(key, value);
    const res = await fetch(`${client.baseUrl}/api/attachments/upload`, {
      method: 'POST',
      headers: { cookie: client.cookieHeader, origin: client.baseUrl },
      body: form,
    });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(201);
    return body as { id: string; url: string };
  }

  /** One account's rows: trades (one on DAY, one today), a note and an image on the trade, prop rules and a ledger entry, a risk default. */
  async function plantAccount(client: ApiClient, tag: string, money: { pnl: string; today: string; target: number; ledger: string }) {
    const account = await createAccount(client, `Desk ${tag}`, { kind: 'evaluation', size: 50000, starting_balance: '50000', firm: 'Topstep' });
    const symbol = `${tag.toUpperCase()}X`;
    const trade = await createTrade(client, {
      account_id: account.id,
      date: DAY,
      symbol,
      side: 'Long',
      pnl: money.pnl,
      notes: `${tag} trade words`,
      tags: [`${tag}tag`],
    });
    const today = getTodayInZone(new Date(), 'America/New_York');
    await createTrade(client, { account_id: account.id, date: today, symbol, side: 'Short', pnl: money.today });
    const note = ok(await client.post('/api/notes', { title: `${tag} trade note`, content: `${tag} note body`, trade_id: trade.id }));
    const image = await upload(client, { trade_id: trade.id }, `${tag} caption`);
    ok(
      await client.put(`/api/prop/accounts/${account.id}/rules`, {
        rules: { profitTargetCents: money.target, maxLoss: { amountCents: 200_000, trailing: 'static' } },
      }),
    );
    const ledger = ok(
      await client.post(`/api/prop/accounts/${account.id}/ledger`, {
        kind: 'evaluation-fee',
        amount: money.ledger,
        occurred_on: DAY,
        note: `${tag} ledger`,
      }),
    );
    const risk = ok(await client.put('/api/risk-defaults', { account_id: account.id, root: 'NQ', stop_points: '20' }));
    return {
      ids: {
        account: account.id,
        trade: trade.id,
        menteeTrade: trade.id,
        note: note.id,
        attachment: image.id,
        ledger: ledger.id,
        riskDefault: risk.id,
      },
      files: [image.url.split('/').pop()!],
      days: [DAY, today],
    };
  }

  /** A trader's own things, not of any account: tagged so that `tag` finds them. */
  async function plantTrader(client: ApiClient, tag: string, journalTag: string, playbookTag: string, tradeId: string) {
    const folder = ok(await client.post('/api/note-folders', { name: `${tag} folder` }));
    const noteTag = ok(await client.post('/api/tags', { name: `${tag}-tag` }));
    const note = ok(
      await client.post('/api/notes', { title: `${tag} free`, content: `${tag} free body`, folder_id: folder.id, tag_ids: [noteTag.id] }),
    );
    const image = await upload(client, { note_id: note.id }, `${tag} image`);
    ok(await client.put(`/api/journal/${DAY}`, { content: `${journalTag} words of the day` }));
    const task = ok(await client.post('/api/tasks', { title: `${tag} task`, task_date: DAY }));
    const link = ok(await client.post('/api/quick-links', { title: `${tag} link`, url: `https://${tag}.example.com` }));
    const view = ok(await client.post('/api/saved-views', { name: `${tag} view`, filter: 'range=all-time' }));
    const session = ok(await client.get('/api/chat/sessions/current'));
    ok(await client.patch(`/api/chat/sessions/${session.id}`, { title: `${tag} chat` }));
    const playbook = ok(await client.post('/api/playbooks', { name: `${playbookTag} setup`, rules: [{ text: `${playbookTag} rule` }] }));
    ok(await client.put(`/api/trade-playbooks/${tradeId}`, { playbook_id: playbook.id }));
    const link2 = ok(
      await client.post('/api/share-links', {
        kind: 'trade',
        target: tradeId,
        expires: 'day',
        hide_amounts: false,
        hide_accounts: false,
        include_notes: true,
      }),
    );
    return {
      ids: {
        folder: folder.id,
        tag: noteTag.id,
        freeNote: note.id,
        task: task.id,
        link: link.id,
        view: view.id,
        session: session.id,
        playbook: playbook.id,
        shareLink: link2.id,
      },
      files: [image.url.split('/').pop()!],
    };
  }

  beforeAll(async () => {
    walked = await startWalkedApp(backend);
    ({ app, endpoints } = walked);
    walkerIds = { ...walked.ids };
    t = await signedUp('iso-trader-t');
    u = await signedUp('iso-trader-u');
    m = await signedUp('iso-mentor-m');
    const v = await signedUp('iso-mentor-v');

    const a = await plantAccount(t.client, 'zqa', { pnl: '1357.91', today: '10.00', target: 300_000, ledger: '49.00' });
    const b = await plantAccount(t.client, 'zqb', { pnl: '4321.09', today: '975.31', target: 987_600, ledger: '66.13' });
    await createTrade(t.client, { account_id: b.ids.account, date: B_ONLY_DAY, symbol: 'ZQBX', pnl: '-2468.13' });
    const tOwn = await plantTrader(t.client, 'zqt-private', 'zqt-journal', 'zqt-playbook', a.ids.trade);
    // B's trade in the same playbook: its figures must not reach the mentor through the playbook.
    ok(await t.client.put(`/api/trade-playbooks/${b.ids.trade}`, { playbook_id: tOwn.ids.playbook }));
    const uAccount = await plantAccount(u.client, 'zqu', { pnl: '8765.43', today: '975.32', target: 500_000, ledger: '12.00' });
    const uOwn = await plantTrader(u.client, 'zqu-own', 'zqu-journal', 'zqu-playbook', uAccount.ids.trade);

    // T shares A (and the journal) with M; U shares with V, never with M.
    const grant = ok(await t.client.post('/api/mentor-grants', { email: m.email, account_ids: [a.ids.account], share_journal: true }));
    ok(await m.client.post('/api/mentor/accept', { token: new URL(grant.url).hash.slice(1) }));
    const uGrant = ok(await u.client.post('/api/mentor-grants', { email: v.email, account_ids: [uAccount.ids.account], share_journal: true }));
    ok(await v.client.post('/api/mentor/accept', { token: new URL(uGrant.url).hash.slice(1) }));
    const mComment = ok(await m.client.post(`/api/mentor/${t.id}/comments`, { trade_id: a.ids.trade, body: 'zqa comment' }), [201]);
    const vComment = ok(await v.client.post(`/api/mentor/${u.id}/comments`, { trade_id: uAccount.ids.trade, body: 'zqu comment' }), [201]);

    const tShared = { ...tOwn.ids, mentee: t.id, mentorGrant: grant.id, mentorComment: mComment.id };
    planted.A = { ids: { ...tShared, ...a.ids }, days: a.days, files: [...a.files, ...tOwn.files] };
    planted.B = { ids: { ...tShared, ...b.ids }, days: [...b.days, B_ONLY_DAY], files: [...b.files, ...tOwn.files] };
    planted.U = {
      ids: { ...uOwn.ids, ...uAccount.ids, mentee: u.id, mentorGrant: uGrant.id, mentorComment: vComment.id },
      days: uAccount.days,
      files: [...uAccount.files, ...uOwn.files],
    };
    tradesOfA = (await t.client.get(`/api/trades?account=${a.ids.account}&limit=50`)).body.trades.map((x: { id: string }) => x.id);
    expect(tradesOfA).toHaveLength(2);

    // M is a trader too, with an account and a trade of their own.
    mAccount = (await createAccount(m.client, 'Mentor own desk')).id;
    mTrade = (await createTrade(m.client, { account_id: mAccount, date: DAY, symbol: 'MES', pnl: '55.55' })).id;
    // M's current chat exists before the sweeps: its first read makes it, which would move M's own later answers.
    ok(await m.client.get('/api/chat/sessions/current'));
  }, 120_000);
  afterAll(() => walked?.close());

  /** The walk's ids of route `route`'s sibling with the same path whose param `name` is one of the walk's ids. */
  function siblingKind(route: string, name: string): string | null {
    const template = route.split(' ')[1]!;
    for (const [other, e] of Object.entries(endpoints)) {
      if (other.split(' ')[1] !== template) continue;
      const value = e.params?.()[name];
      const kind = Object.entries(walkerIds).find(([, id]) => id === value)?.[0];
      if (kind) return kind;
    }
    return null;
  }

  /** Every request of the sweep for one route and one victim set: the route's own, then each id field in turn. */
  function requests(route: string, e: Endpoint, victim: Planted): Change[][] {
    const out: Change[][] = [[]];
    const all = [...Object.values(victim.ids), ...victim.days, ...victim.files];
    for (const [name, value] of Object.entries(e.params?.() ?? {})) {
      if (Object.values(walkerIds).includes(value)) continue; // swapped already, through the ids
      const kind = siblingKind(route, name);
      const candidates =
        kind && victim.ids[kind]
          ? [victim.ids[kind]]
          : /^\d{4}-\d\d-\d\d$/.test(value)
            ? victim.days
            : value === NIL
              ? Object.values(victim.ids)
              : all;
      for (const candidate of candidates) out.push([{ where: 'params', field: name, value: candidate }]);
    }
    const fieldVariants = (where: string, fields: string[], sample: Record<string, unknown>) => {
      for (const field of new Set(fields)) {
        const kind = kindOfField(field);
        const values = kind === 'day' ? victim.days : kind && victim.ids[kind] ? [victim.ids[kind]] : [];
        for (const value of values) {
          const asList = Array.isArray(sample[field]) || /(_ids|^ids)$/.test(field);
          out.push([{ where, field, value: where === 'body' && asList ? [value] : value }]);
        }
      }
    };
    fieldVariants('query', [...Object.keys(e.query?.() ?? {}), ...fieldsOf(e.querySchema)], e.query?.() ?? {});
    if (e.body) fieldVariants('body', [...Object.keys(e.body()), ...fieldsOf(e.bodySchema)], e.body());
    if (e.form) fieldVariants('form', [...Object.keys(e.form()), 'note_id', 'trade_id', 'playbook_id'], e.form());
    return out;
  }

  /** Sends a request of the sweep as M, with the walk's ids swapped for the victim's. */
  async function sendAs(client: ApiClient, route: string, e: Endpoint, victim: Planted, changes: Change[]) {
    Object.assign(walked.ids, walkerIds, victim.ids);
    try {
      // Form variants name one target: the form's own note is dropped when another field is sent.
      let endpoint = e;
      const formChange = changes.find((c) => c.where === 'form');
      if (formChange && e.form)
        endpoint = { ...e, form: () => ({ ...Object.fromEntries(Object.entries(e.form!()).filter(([k]) => !k.endsWith('_id'))), caption: 'x' }) };
      const [first, ...rest] = changes;
      if (rest.length > 0) throw new Error('one change at a time');
      return await send(client, route, endpoint, first ?? { where: 'none', field: '', value: null });
    } finally {
      Object.assign(walked.ids, walkerIds);
    }
  }

  const isMentorRoute = (route: string) => route.split(' ')[1]!.startsWith('/api/mentor/:traderId');
  /** What an answer of this route may never say. M's mentor side (the traders list, an accepted invite) names A. */
  function forbidden(route: string): string[] {
    if (route.split(' ')[1]!.startsWith('/api/mentor/')) return [...MARK.B, ...MARK.U, ...MARK.T];
    return [...MARK.A, ...MARK.B, ...MARK.U, ...MARK.T, ...MARK.shared];
  }

  /** The GET sweep: every answer, by request, and every leak found. */
  async function readSweep(): Promise<{ answers: Map<string, string>; leaks: string[] }> {
    const answers = new Map<string, string>();
    const leaks: string[] = [];
    for (const [route, e] of Object.entries(endpoints)) {
      if (!route.startsWith('GET ')) continue;
      for (const victim of ['A', 'B', 'U'] as const) {
        for (const changes of requests(route, e, planted[victim])) {
          const sent = await sendAs(m.client, route, e, planted[victim], changes);
          const key = `${route} [${victim}] ${JSON.stringify(changes)}`;
          // Moments (an export's time, a chat's last use) move by themselves; figures and rows must not.
          answers.set(key, `${sent.status} ${sent.text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)/g, '<moment>')}`);
          const hits = found(sent.text, forbidden(route));
          if (hits.length > 0) leaks.push(`${key} -> ${sent.status} shows ${hits.join(', ')}: ${sent.text.slice(0, 200)}`);
          if (sent.status >= 500) leaks.push(`${key} -> ${sent.status} ${sent.text.slice(0, 200)}`);
          if (isMentorRoute(route) && victim === 'U' && sent.status !== 404)
            leaks.push(`${key} -> ${sent.status}, not 404, for a trader who never invited M`);
        }
      }
    }
    return { answers, leaks };
  }

  /** Every row of T's and U's in every owned table, as the database holds it. */
  async function snapshot() {
    const out: Record<string, unknown[]> = {};
    for (const table of ownedTables) {
      const found = await rows(sql`select * from ${sql.identifier(table)} where user_id in (${t.id}, ${u.id})`);
      out[table] = found.map((row) => JSON.stringify(row)).sort();
    }
    return out;
  }

  it("M's own Trade Log, accounts and reports are M's rows only", async () => {
    const trades = ok(await m.client.get('/api/trades?limit=50'));
    expect(trades.trades.map((x: { id: string }) => x.id)).toEqual([mTrade]);
    expect(ok(await m.client.get('/api/accounts')).map((x: { id: string }) => x.id)).toEqual([mAccount]);
    const overview = ok(await m.client.get('/api/reports/overview?range=all-time'));
    expect([overview.overview.trades, overview.overview.netCents]).toEqual([1, 5555]);
    expect(ok(await m.client.get('/api/prop/status')).accounts).toEqual([]);
    expect(ok(await m.client.get('/api/notes?limit=50')).notes).toEqual([]);
    expect(ok(await m.client.get(`/api/journal/${DAY}`)).trades.map((x: { id: string }) => x.id)).toEqual([mTrade]);
  });

  it('the mentor routes show A for T, never B, and answer 404 for U', async () => {
    const trades = ok(await m.client.get(`/api/mentor/${t.id}/trades?limit=50`));
    expect(trades.trades.map((x: { id: string }) => x.id).sort()).toEqual([...tradesOfA].sort());
    const text = JSON.stringify(trades);
    expect(found(text, ['zqa', '1357.91'])).toEqual(['zqa', '1357.91']);
    expect(found(text, [...MARK.B, ...MARK.U])).toEqual([]);
    const overview = ok(await m.client.get(`/api/mentor/${t.id}/reports/overview?range=all-time`));
    expect([overview.overview.trades, overview.overview.netCents]).toEqual([2, 135791 + 1000]);
    const prop = ok(await m.client.get(`/api/mentor/${t.id}/prop`));
    expect(prop.accounts.map((x: { account: { id: string } }) => x.account.id)).toEqual([planted.A.ids.account]);
    const journal = JSON.stringify(ok(await m.client.get(`/api/mentor/${t.id}/journal`)));
    expect(journal).toContain(DAY);
    expect(journal).not.toContain(B_ONLY_DAY);
    const day = JSON.stringify(ok(await m.client.get(`/api/mentor/${t.id}/journal/${DAY}`)));
    expect(found(day, ['zqt-journal', 'zqa'])).toEqual(['zqt-journal', 'zqa']);
    expect(found(day, [...MARK.B, ...MARK.U, ...MARK.T])).toEqual([]);
    // Every mentor GET route of the walk's table answers for T and refuses U.
    const mentorGets = Object.keys(endpoints).filter((r) => r.startsWith('GET ') && isMentorRoute(r));
    expect(mentorGets.length).toBeGreaterThanOrEqual(8);
    for (const route of mentorGets) {
      const e = endpoints[route]!;
      // A file route is asked for one of A's images (the table's own file name is nobody's).
      const file: Change[] = route.includes(':file') ? [{ where: 'params', field: 'file', value: planted.A.files[0]! }] : [];
      expect((await sendAs(m.client, route, e, planted.A, file)).status, route).toBe(200);
      expect((await sendAs(m.client, route, e, planted.U, file)).status, route).toBe(404);
    }
  });

  it("no answer of any endpoint shows B's or U's rows or figures, and none moves when they change", async () => {
    const before = await readSweep();
    expect(before.leaks).toEqual([]);
    expect(before.answers.size).toBeGreaterThan(300);

    // B and U change: new trades, new figures, a new prop target. What M reads must not move.
    await createTrade(t.client, { account_id: planted.B.ids.account, date: DAY, symbol: 'ZQBX', pnl: '3.17' });
    await createTrade(t.client, { account_id: planted.B.ids.account, date: '2025-03-07', symbol: 'ZQBX', pnl: '-8.41' });
    ok(await t.client.put(`/api/prop/accounts/${planted.B.ids.account}/rules`, { rules: { profitTargetCents: 111_100 } }));
    await createTrade(u.client, { account_id: planted.U.ids.account, date: DAY, symbol: 'ZQUX', pnl: '7.77' });
    const after = await readSweep();
    expect(after.leaks).toEqual([]);
    const moved = [...before.answers]
      .filter(([key, text]) => after.answers.get(key) !== text)
      .map(([key, text]) => `${key}: ${text.slice(0, 300)} -> ${after.answers.get(key)?.slice(0, 300)}`);
    expect(moved).toEqual([]);
  }, 600_000);

  it("every write M sends with T's or U's ids changes none of their rows, and shows none of their data", async () => {
    const before = await snapshot();
    const commentsBefore = before.mentor_comments!.length;
    const leaks: string[] = [];
    for (const [route, e] of Object.entries(endpoints)) {
      const method = route.split(' ')[0]!;
      if (!MUTATING.has(method)) continue;
      for (const victim of ['A', 'B', 'U'] as const) {
        for (const changes of requests(route, e, planted[victim])) {
          const sent = await sendAs(m.client, route, e, planted[victim], changes);
          const key = `${route} [${victim}] ${JSON.stringify(changes)}`;
          const hits = found(sent.text, forbidden(route));
          if (hits.length > 0) leaks.push(`${key} -> ${sent.status} shows ${hits.join(', ')}: ${sent.text.slice(0, 200)}`);
          if (sent.status >= 500) leaks.push(`${key} -> ${sent.status} ${sent.text.slice(0, 200)}`);
        }
      }
    }
    expect(leaks).toEqual([]);
    const after = await snapshot();
    for (const table of ownedTables) {
      if (table === 'mentor_comments') continue;
      expect(after[table], table).toEqual(before[table]);
    }
    // The one thing M adds: comments to T, each on a trade of A or on a day.
    const added = after.mentor_comments!.filter((row) => !before.mentor_comments!.includes(row)).map((row) => JSON.parse(row as string));
    expect(added.length).toBeGreaterThan(0);
    expect(after.mentor_comments!.length).toBe(commentsBefore + added.length);
    for (const row of added) {
      expect(row.user_id).toBe(t.id);
      expect(row.author_id).toBe(m.id);
      if (row.trade_id !== null) expect(tradesOfA).toContain(row.trade_id);
    }
    // Nothing of T's or U's was copied into M's own journal either.
    const exported = await m.client.get('/api/account/export');
    expect(exported.status).toBe(200);
    expect(found(JSON.stringify(exported.body), [...MARK.A, ...MARK.B, ...MARK.U, ...MARK.T, ...MARK.shared])).toEqual([]);
  }, 600_000);

  it('refuses every other method on the mentor routes, and a comment on a trade of B or of U', async () => {
    const before = await snapshot();
    const mentorTemplates = [
      ...new Set(
        Object.keys(endpoints)
          .filter(isMentorRoute)
          .map((r) => r.split(' ')[1]!),
      ),
    ];
    const allowed = new Set(['POST /api/mentor/:traderId/comments']);
    const accepted: string[] = [];
    for (const template of mentorTemplates) {
      for (const method of MUTATING) {
        if (allowed.has(`${method} ${template}`)) continue;
        for (const victim of ['A', 'B', 'U'] as const) {
          const path = template
            .replace(':traderId', planted[victim].ids.mentee!)
            .replace(/:(\w+)/g, (_, name: string) => (name === 'date' ? DAY : (planted[victim].ids.menteeTrade ?? NIL)));
          const res = await m.client.json(method, path, { trade_id: planted[victim].ids.trade, body: 'zqx', pnl: '1.00' });
          if (res.status < 400 || res.status >= 500) accepted.push(`${method} ${path} -> ${res.status}`);
        }
      }
    }
    expect(accepted).toEqual([]);

    const comment = (traderId: string, body: Record<string, unknown>) => m.client.post(`/api/mentor/${traderId}/comments`, { body: 'zqx', ...body });
    expect((await comment(t.id, { trade_id: planted.B.ids.trade })).status).toBe(404);
    expect((await comment(t.id, { trade_id: planted.U.ids.trade })).status).toBe(404);
    expect((await comment(u.id, { trade_id: planted.U.ids.trade })).status).toBe(404);
    expect((await comment(u.id, { trade_date: DAY })).status).toBe(404);
    expect((await comment(u.id, { trade_id: planted.A.ids.trade })).status).toBe(404);
    // A day's comment names no account: on a day only B traded, it is T's day, and the answer says nothing of B.
    const onDay = await comment(t.id, { trade_date: B_ONLY_DAY });
    expect(onDay.status).toBe(201);
    expect(found(JSON.stringify(onDay.body), [...MARK.B, ...MARK.U])).toEqual([]);
    const after = await snapshot();
    for (const table of ownedTables) if (table !== 'mentor_comments') expect(after[table], table).toEqual(before[table]);
    expect(after.mentor_comments!.length).toBe(before.mentor_comments!.length + 1);
  }, 120_000);
});
