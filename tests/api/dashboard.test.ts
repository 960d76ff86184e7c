import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IMAGE_SIZE_ERROR, IMAGE_TYPE_ERROR, MAX_IMAGE_BYTES } from '../../src/domain/files/image-type';
import { taskCompletion } from '../../src/server/db/schema';
import { backends, startTestApp, uniqueEmail, type ApiClient, type TestApp } from '../support/app';
import { createTrade, listAll, newTrader } from './trades-support';

/**
 * The dashboard's API: tasks and their completions, the daily status,
 * onboarding exactly once, the profile picture checked from its bytes, and the per-user dashboard preferences.
 */

/** A 1x1 PNG. */
const PNG_BYTES = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

interface TaskDto {
  id: string;
  title: string;
  category: string;
  completed: boolean;
  recurring: boolean;
  task_date: string;
}

async function userIdOf(client: ApiClient): Promise<string> {
  const res = await client.get('/api/auth/get-session');
  expect(res.status).toBe(200);
  return res.body.user.id as string;
}

async function uploadAvatar(client: ApiClient, bytes: Uint8Array, name: string, type: string) {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), name);
  const res = await fetch(`${client.baseUrl}/api/profile/avatar`, {
    method: 'POST',
    headers: { cookie: client.cookieHeader, origin: client.baseUrl },
    body: form,
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function addTask(client: ApiClient, input: Record<string, unknown>) {
  const res = await client.post('/api/tasks', input);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as TaskDto;
}

describe.each(backends())('dashboard API on %s', (backend) => {
  let app: TestApp;
  let alice: ApiClient;
  let bob: ApiClient;

  beforeAll(async () => {
    app = await startTestApp({ backend });
    [alice, bob] = await Promise.all([newTrader(app, 'alice'), newTrader(app, 'bob')]);
  });
  afterAll(() => app?.close());

  describe('tasks', () => {
    it('adds a task with a trimmed title and the spec categories, lists it for its date only', async () => {
      const task = await addTask(alice, { title: '  Review the open  ', category: 'Psychology', task_date: '2025-06-02' });
      expect(task).toMatchObject({ title: 'Review the open', category: 'Psychology', completed: false, recurring: false, task_date: '2025-06-02' });

      const day = await alice.get('/api/tasks?date=2025-06-02');
      expect(day.body.map((t: TaskDto) => t.id)).toEqual([task.id]);
      expect((await alice.get('/api/tasks?date=2025-06-03')).body).toEqual([]);
      expect((await bob.get('/api/tasks?date=2025-06-02')).body).toEqual([]);
    });

    it('refuses a blank title, an unknown category and a malformed date', async () => {
      const blank = await alice.post('/api/tasks', { title: '   ', task_date: '2025-06-02' });
      expect(blank.status).toBe(400);
      expect(blank.body.error).toContain('Task title is required');
      const category = await alice.post('/api/tasks', { title: 'x', category: 'Gambling', task_date: '2025-06-02' });
      expect(category.status).toBe(400);
      const date = await alice.post('/api/tasks', { title: 'x', task_date: '06/02/2025' });
      expect(date.status).toBe(400);
    });

    it('toggles completion and records it once per task name and day; unchecking removes the record', async () => {
      const task = await addTask(alice, { title: 'Journal the session', task_date: '2025-06-04' });
      const userId = await userIdOf(alice);
      const completions = () =>
        app.server.database.withUser(userId, (tx) =>
          tx
            .select()
            .from(taskCompletion)
            .where(and(eq(taskCompletion.userId, userId), eq(taskCompletion.taskName, 'Journal the session'))),
        );

      const done = await alice.patch(`/api/tasks/${task.id}`, { completed: true });
      expect(done.status).toBe(200);
      expect(done.body.completed).toBe(true);
      // Completing twice is not a duplicate error (duplicates ignored).
      expect((await alice.patch(`/api/tasks/${task.id}`, { completed: true })).status).toBe(200);
      expect((await completions()).map((c) => c.completionDate)).toEqual(['2025-06-04']);

      const undone = await alice.patch(`/api/tasks/${task.id}`, { completed: false });
      expect(undone.body.completed).toBe(false);
      expect(await completions()).toEqual([]);
    });

    it("keeps another trader's task out of reach: update and delete are 404 and change nothing", async () => {
      const task = await addTask(alice, { title: 'Alice only', task_date: '2025-06-05' });
      const patch = await bob.patch(`/api/tasks/${task.id}`, { completed: true, title: 'hijacked' });
      expect(patch.status).toBe(404);
      const del = await bob.delete(`/api/tasks/${task.id}`);
      expect(del.status).toBe(404);
      const after = await alice.get('/api/tasks?date=2025-06-05');
      expect(after.body).toEqual([expect.objectContaining({ id: task.id, title: 'Alice only', completed: false })]);
      expect((await bob.get('/api/tasks/status?from=2025-06-01&to=2025-06-30')).body).toEqual([]);
    });

    it('deletes a task; deleting it again is 404', async () => {
      const task = await addTask(alice, { title: 'Delete me', task_date: '2025-06-06' });
      expect((await alice.delete(`/api/tasks/${task.id}`)).status).toBe(204);
      expect((await alice.get('/api/tasks?date=2025-06-06')).body).toEqual([]);
      expect((await alice.delete(`/api/tasks/${task.id}`)).status).toBe(404);
    });

    it('carries a recurring task over to each later day up to today, open, and not twice', async () => {
      const trader = await newTrader(app, 'recurring');
      await addTask(trader, { title: 'Check the economic calendar', recurring: true, task_date: '2025-07-01' });
      const next = await trader.get('/api/tasks?date=2025-07-02');
      expect(next.body).toEqual([expect.objectContaining({ title: 'Check the economic calendar', recurring: true, completed: false })]);
      expect((await trader.get('/api/tasks?date=2025-07-02')).body).toHaveLength(1);
      // A day before the task began gets nothing.
      expect((await trader.get('/api/tasks?date=2025-06-30')).body).toEqual([]);
    });

    it('gives the daily status from the completion ratio: 0.8 profit, 0.5 breakeven, some loss, none', async () => {
      const trader = await newTrader(app, 'status');
      const plan: Array<[string, number]> = [
        ['2025-08-04', 4], // 4 of 5 = 0.8 -> profit
        ['2025-08-05', 3], // 0.6 -> breakeven
        ['2025-08-06', 1], // 0.2 -> loss
        ['2025-08-07', 0], // none
      ];
      for (const [date, completed] of plan) {
        const tasks = [];
        for (let i = 0; i < 5; i++) tasks.push(await addTask(trader, { title: `Task ${i}`, task_date: date }));
        for (const task of tasks.slice(0, completed)) await trader.patch(`/api/tasks/${task.id}`, { completed: true });
      }
      const status = await trader.get('/api/tasks/status?from=2025-08-01&to=2025-08-31');
      expect(status.status).toBe(200);
      expect(status.body).toEqual([
        { date: '2025-08-04', total: 5, completed: 4, status: 'profit' },
        { date: '2025-08-05', total: 5, completed: 3, status: 'breakeven' },
        { date: '2025-08-06', total: 5, completed: 1, status: 'loss' },
        { date: '2025-08-07', total: 5, completed: 0, status: 'none' },
      ]);
    });
  });

  describe('onboarding', () => {
    it('gives a new trader 7 sample trades and 5 tasks exactly once under 10 concurrent sign-ins', async () => {
      const email = uniqueEmail('newbie');
      const first = app.client();
      expect((await first.signUp(email)).status).toBe(200);
      const others = [app.client(), app.client()];
      for (const other of others) expect((await other.signIn(email)).status).toBe(200);
      const browsers = [first, ...others];

      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => browsers[i % browsers.length]!.post('/api/onboarding')));
      expect(results.map((r) => r.status)).toEqual(Array(10).fill(200));
      expect(results.filter((r) => r.body.created === true)).toHaveLength(1);

      const trades = await listAll(first);
      expect(trades).toHaveLength(7);
      expect(new Set(trades.map((t) => t.symbol))).toEqual(new Set(['NQ', 'ES', 'BTC']));
      const prefs = await first.get('/api/preferences');
      expect(prefs.body.onboarded).toBe(true);
      const today = new Intl.DateTimeFormat('en-CA', { timeZone: prefs.body.time_zone }).format(new Date());
      // Sample trades fall in the current month, up to today.
      for (const t of trades) {
        expect(t.date.slice(0, 7)).toBe(today.slice(0, 7));
        expect(t.date <= today).toBe(true);
      }
      const tasks = await first.get(`/api/tasks?date=${today}`);
      expect(tasks.body).toHaveLength(5);

      // Deleting the samples does not bring them back: onboarding happens once per trader, ever.
      const del = await first.post('/api/trades/bulk-delete', { ids: trades.map((t) => t.id) });
      expect(del.body.deleted).toBe(7);
      expect((await others[0]!.post('/api/onboarding')).body).toEqual({ created: false });
      expect(await listAll(first)).toHaveLength(0);
      expect((await first.get(`/api/tasks?date=${today}`)).body).toHaveLength(5);
    });

    it('does not give samples to a trader who already has trades', async () => {
      const trader = await newTrader(app, 'veteran');
      await createTrade(trader, { date: '2025-03-03', symbol: 'MNQ', pnl: 50 });
      expect((await trader.post('/api/onboarding')).body).toEqual({ created: false });
      expect(await listAll(trader)).toHaveLength(1);
    });
  });

  describe('profile and picture', () => {
    it('creates a default profile and saves the names', async () => {
      const trader = await newTrader(app, 'profile');
      const fresh = await trader.get('/api/profile');
      expect(fresh.status).toBe(200);
      expect(fresh.body).toMatchObject({ display_name: null, first_name: null, last_name: null, profile_picture_url: null });
      const saved = await trader.patch('/api/profile', { display_name: ' Ace ', first_name: 'Ada', last_name: 'Lovelace' });
      expect(saved.body).toMatchObject({ display_name: 'Ace', first_name: 'Ada', last_name: 'Lovelace', user_customized: true });
      expect((await bob.get('/api/profile')).body.display_name).not.toBe('Ace');
    });

    it('refuses a text file renamed .png with the spec message (400)', async () => {
      const bytes = new TextEncoder().encode('this is not an image, only text pretending to be one');
      const res = await uploadAvatar(alice, bytes, 'avatar.png', 'image/png');
      expect(res.status).toBe(400);
      expect(res.body.error).toBe(IMAGE_TYPE_ERROR);
      expect(res.body.error).toBe('Please upload a valid image file (JPEG, PNG, WebP, or GIF)');
    });

    it('refuses a picture over 10 MB with the spec message (413)', async () => {
      const big = new Uint8Array(MAX_IMAGE_BYTES + 1024);
      big.set(PNG_BYTES, 0);
      const res = await uploadAvatar(alice, big, 'big.png', 'image/png');
      expect(res.status).toBe(413);
      expect(res.body.error).toBe(IMAGE_SIZE_ERROR);
      expect(res.body.error).toBe('Image must be smaller than 10MB');
    });

    it('stores a real PNG, serves it as image/png to its owner only, and removes the old file on replace', async () => {
      const trader = await newTrader(app, 'avatar');
      // Named .jpg with a wrong claimed type: the bytes decide.
      const first = await uploadAvatar(trader, PNG_BYTES, 'photo.jpg', 'image/jpeg');
      expect(first.status).toBe(201);
      const url: string = first.body.profile_picture_url;
      expect(url).toMatch(/^\/api\/profile\/avatar\/avatar-\d+\.png$/);

      const own = await trader.request('GET', url);
      expect(own.status).toBe(200);
      expect(own.headers.get('content-type')).toBe('image/png');
      expect(own.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await own.arrayBuffer()).equals(PNG_BYTES)).toBe(true);

      const stranger = await bob.request('GET', url);
      expect(stranger.status).toBe(404);
      const anonymous = await fetch(`${app.url}${url}`);
      expect(anonymous.status).toBe(401);

      await new Promise((r) => setTimeout(r, 5));
      const second = await uploadAvatar(trader, PNG_BYTES, 'again.png', 'image/png');
      expect(second.status).toBe(201);
      expect(second.body.profile_picture_url).not.toBe(url);
      expect((await trader.request('GET', url)).status).toBe(404);
      expect((await trader.request('GET', second.body.profile_picture_url)).status).toBe(200);
    });
  });

  describe('dashboard preferences', () => {
    it('starts with the spec defaults: quick note "Note:", and a new account starting at 10000', async () => {
      const trader = await newTrader(app, 'prefs');
      const prefs = await trader.get('/api/preferences');
      expect(prefs.body).toMatchObject({ quick_note: 'Note:', widgets: null, layout: null, stats_widgets_order: null });
      // The balance widget's starting balance is each account's own.
      expect(prefs.body).not.toHaveProperty('starting_balance');
      expect((await trader.post('/api/accounts', { name: 'Main' })).body.starting_balance).toBe('10000.00');
    });

    it('keeps the layout, the widget order and the notes per trader, so they follow them to another browser', async () => {
      const widgets = [
        { id: 'tradelog-pnl-calendar', type: 'pnl-calendar-full-width', visible: true, position: 0, column: 0 },
        { id: 'tasks', type: 'tasks', visible: true, position: 1, column: 0 },
        { id: 'forex-news', type: 'forex-news', visible: false, position: 0, column: 1 },
        { id: 'edgebook-score', type: 'score', visible: true, position: 0, column: 2 },
      ];
      const order = ['win-rate', 'welcome', 'profit-factor', 'monthly-pnl'];
      const saved = await alice.patch('/api/preferences', {
        widgets,
        layout: { columns: 3 },
        stats_widgets_order: order,
        quick_note: 'Note: no trades before 9:45',
      });
      expect(saved.status).toBe(200);

      const elsewhere = app.client();
      // The same trader signing in from a second browser.
      const session = await alice.get('/api/auth/get-session');
      expect((await elsewhere.signIn(session.body.user.email)).status).toBe(200);
      const read = await elsewhere.get('/api/preferences');
      expect(read.body).toMatchObject({ widgets, layout: { columns: 3 }, stats_widgets_order: order, quick_note: 'Note: no trades before 9:45' });

      const other = await bob.get('/api/preferences');
      expect(other.body).toMatchObject({ widgets: null, quick_note: 'Note:' });
    });
  });

  describe('day trades (the calendar day dialog)', () => {
    it('lists one trading day with from/to, with the total for that day', async () => {
      const trader = await newTrader(app, 'day');
      await createTrade(trader, { date: '2025-09-08', symbol: 'NQ', pnl: 100 });
      await createTrade(trader, { date: '2025-09-09', symbol: 'ES', pnl: -40 });
      await createTrade(trader, { date: '2025-09-09', symbol: 'MNQ', pnl: 15 });
      await createTrade(trader, { date: '2025-09-10', symbol: 'YM', pnl: 5 });
      const res = await trader.get('/api/trades?from=2025-09-09&to=2025-09-09&limit=500');
      expect(res.status).toBe(200);
      expect(res.body.total).toBe(2);
      expect(res.body.trades.map((t: { symbol: string }) => t.symbol).sort()).toEqual(['ES', 'MNQ']);
      expect((await trader.get('/api/trades?from=2025-9-9')).status).toBe(400);
    });
  });
});
