import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { chatGreeting } from '../src/domain/chat';
import { addDays, formatShortDay, getHourInZone, getTodayInZone } from '../src/domain/dates';
import { SAMPLE_QUESTIONS } from '../src/web/features/reflect-ai/sample-questions';
import type { Route } from 'playwright-core';
import type { ApiClient } from '../tests/support/app';
import { aiEnv, startAiServer, type AiServer } from '../tests/support/ai-server';
import { postSse } from '../tests/support/sse';
import { createTrade, listAll } from '../tests/api/trades-support';
import { ReflectAiPage } from './pages/reflect-ai';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, type Scenario, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * ReflectAI in Chromium against the
 * OpenAI-compatible test server: the welcome screen, a streamed answer computed by a tool with its chart and
 * sources, Stop, history, titles, rename, clear, delete, New Chat, DeepThink, an answer that tries to run script,
 * auto-scroll, and a server without a provider. Screenshots go to SCREENSHOT_DIR (or a temporary directory).
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-reflect-ai-'));
const ZONE = 'America/New_York';
const today = () => getTodayInZone(new Date(), ZONE);

/** A trader (browser and API) past onboarding, without its sample trades. */
async function trader(s: Scenario, app: Parameters<typeof signedInTrader>[0]): Promise<{ api: ApiClient; chat: ReflectAiPage }> {
  const api = await signedInTrader(app, s.context, 'chat');
  await api.post('/api/onboarding');
  const samples = await listAll(api);
  if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
  return { api, chat: new ReflectAiPage(s.page) };
}

const messagesOf = async (api: ApiClient) => {
  const current = (await api.get('/api/chat/sessions/current')).body;
  return (await api.get(`/api/chat/sessions/${current.id}/messages`)).body as Array<{
    text: string;
    isUser: boolean;
    status: string;
    mode: string;
    reasoning: string | null;
  }>;
};

const TABLE_ANSWER = [
  'Your **AM** session beats PM:\n\n',
  '| Session | Net P&L |\n',
  '|---|---|\n',
  '| AM | $100.00 |\n',
  '| PM | -$40.00 |\n\n',
  '- Keep trading the open\n',
  '- Stop after lunch\n',
];

describe('ReflectAI with an AI provider', () => {
  let provider: AiServer | undefined;
  const suite = useE2ESuite(async () => {
    provider = await startAiServer();
    return { env: { ...aiEnv(provider), AI_RATE_LIMIT: '500', AUTH_RATE_LIMIT: '1000' } };
  });
  afterAll(async () => provider?.close());
  const ai = () => provider!;
  const newTrader = (s: Scenario) => trader(s, suite.e2e.app);

  describe('welcome', () => {
    it('greets the trader by name for the hour, types sample questions, refuses an empty question, and Shift+Enter makes a new line', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      ai().clear();
      // The trader's zone and name arrive late: the greeting waits for them rather than greeting for the browser's
      // hour (this machine's zone is not New York's) as 'Trader'.
      const late = (route: Route) => setTimeout(() => void route.continue().catch(() => undefined), 1_000);
      await s.page.route('**/api/preferences', late);
      await s.page.route('**/api/profile', late);
      await chat.goto();
      const greeting = chatGreeting(getHourInZone(new Date(), ZONE)!);
      expect(await chat.greeting.innerText()).toBe(`${greeting}, Trader`);
      expect(await s.page.title()).toBe('New Conversation · ReflectAI');

      // The placeholder types the sample questions out, one character at a time.
      const seen = new Set<string>();
      await eventually(async () => {
        const p = (await chat.input.getAttribute('placeholder')) ?? '';
        if (p) seen.add(p);
        return seen.size;
      }).toBeGreaterThan(3);
      for (const p of seen)
        expect(
          SAMPLE_QUESTIONS.some((q) => q.startsWith(p)),
          p,
        ).toBe(true);

      // An empty (or blank) question is not sent.
      await chat.input.press('Enter');
      await chat.input.fill('   ');
      await chat.input.press('Enter');
      expect(await chat.sendButton.isDisabled()).toBe(true);
      await chat.input.fill('first line');
      await chat.input.press('Shift+Enter');
      await chat.input.pressSequentially('second line');
      expect(await chat.input.inputValue()).toBe('first line\nsecond line');
      expect(await chat.welcome.isVisible()).toBe(true);
      expect(ai().completions()).toHaveLength(0);

      // The display name, once the trader sets one.
      expect((await api.patch('/api/profile', { display_name: 'Alex' })).status).toBe(200);
      await chat.goto();
      expect(await chat.greeting.innerText()).toBe(`${greeting}, Alex`);
    });

    it('honours reduced motion: the placeholder is the first question, still', async () => {
      const s = await suite.scenario();
      await s.page.emulateMedia({ reducedMotion: 'reduce' });
      const { chat } = await newTrader(s);
      await chat.goto();
      expect(await chat.input.getAttribute('placeholder')).toBe(SAMPLE_QUESTIONS[0]);
      await s.page.waitForTimeout(300);
      expect(await chat.input.getAttribute('placeholder')).toBe(SAMPLE_QUESTIONS[0]);
    });

    it('opens from the search palette’s Trading Coach', async () => {
      const s = await suite.scenario();
      const { chat } = await newTrader(s);
      await new Shell(s.page).goto('/trade-log');
      const palette = new SearchPalette(s.page);
      await palette.openWithShortcut();
      await palette.search('Trading Coach');
      await palette.entry('trading-coach').click();
      await chat.ready();
      expect(new URL(s.page.url()).pathname).toBe('/reflect-ai');
    });
  });

  describe('answers', () => {
    it('streams an answer computed by a tool, draws its chart, names its sources, and titles the conversation', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      await createTrade(api, { date: today(), period: 'AM', pnl: '100' });
      await createTrade(api, { date: today(), period: 'PM', pnl: '-40' });
      await chat.goto();
      ai().clear();
      ai().reply(
        { toolCalls: [{ name: 'get_pnl_breakdown', arguments: { by: 'session' } }], only: 'stream' },
        { chunks: TABLE_ANSWER, delayMs: 250, headersDelayMs: 1_500, only: 'stream' },
        { text: 'AM versus PM', only: 'non-stream' },
      );
      await chat.ask('Which session is better for my trading?');
      await chat.welcome.waitFor({ state: 'hidden' });
      expect(await chat.userMessages.last().innerText()).toBe('Which session is better for my trading?');
      expect(await chat.input.inputValue()).toBe('');

      // The tool runs, then the answer streams in.
      await chat.lastAnswer.getByTestId('answer-tool').filter({ hasText: 'Breaking down your P&L…' }).waitFor();
      await chat.stopButton.waitFor();
      await eventually(() => chat.lastAnswer.innerText()).toContain('Your AM session beats PM');
      expect(await chat.lastAnswer.getAttribute('data-status')).toBe('streaming');
      // Sending is blocked while the answer streams: Enter keeps the next question in the box.
      await chat.input.fill('And on Fridays?');
      await chat.input.press('Enter');
      expect(await chat.input.inputValue()).toBe('And on Fridays?');

      const answer = await chat.answered();
      expect(await answer.getAttribute('data-status')).toBe('complete');
      expect(await chat.userMessages.count()).toBe(1);
      const table = answer.getByTestId('answer-markdown').getByRole('table');
      expect(await table.getByRole('row').count()).toBe(3);
      expect(await table.getByRole('row').nth(2).innerText()).toMatch(/PM\s+-\$40\.00/);
      expect(await answer.getByRole('listitem').allInnerTexts()).toEqual(['Keep trading the open', 'Stop after lunch']);
      const chart = answer.getByTestId('answer-chart');
      expect(await chart.getByRole('heading').innerText()).toBe('Net P&L by session');
      expect(await chart.locator('svg .recharts-bar-rectangle').count()).toBe(2);
      expect(await chart.getByTestId('answer-chart-table').getByRole('row').allInnerTexts()).toEqual(['AM\t$100.00', 'PM\t-$40.00']);
      // What the figures came from: the question's context and the tool read the same two trades, so the line is
      // printed once (it was printed twice, in two wordings).
      expect(await answer.getByTestId('answer-source').allInnerTexts()).toEqual([
        `Computed from 2 trades, ${formatShortDay(today())}, ${today().slice(0, 4)}`,
      ]);

      // The title came from the model after the first message, and names the page.
      await eventually(() => chat.title.innerText()).toBe('AM versus PM');
      expect(await s.page.title()).toBe('AM versus PM · ReflectAI');
      const [first, second, title] = ai().completions();
      expect(first!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain('get_pnl_breakdown');
      expect(second!.body.messages.some((m: { role: string }) => m.role === 'tool')).toBe(true);
      expect(title!.body).toMatchObject({ max_tokens: 20, temperature: 0.3 });

      // Kept on the server: after a reload the answer, its chart and its sources are still there.
      await s.page.reload();
      await chat.ready();
      expect(await chat.lastAnswer.getByTestId('answer-chart').count()).toBe(1);
      expect(await chat.lastAnswer.getByTestId('answer-source').count()).toBe(1);
      expect(await chat.title.innerText()).toBe('AM versus PM');
      // The kept question can go now.
      ai().reply({ text: 'Fridays are flat.' });
      await chat.input.fill('And on Fridays?');
      await chat.sendButton.click();
      await eventually(() => chat.answers.count()).toBe(2);
      await eventually(async () => (await chat.answered()).innerText()).toContain('Fridays are flat.');
    });

    it('stops an answer mid-way: the page and the server keep what came, marked stopped, and the provider request ends', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      await chat.goto();
      ai().clear();
      const story = 'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen';
      ai().reply({ text: story, delayMs: 250, only: 'stream' }, { text: 'A long story', only: 'non-stream' });
      await chat.ask('Tell me a long story about my trading');
      await eventually(() => chat.lastAnswer.innerText()).toContain('two three');
      await chat.stopButton.click();
      const answer = await chat.answered();
      expect(await answer.getAttribute('data-status')).toBe('stopped');
      await answer.getByTestId('answer-stopped').waitFor();
      await ai().waitForAbort(
        ai()
          .completions()
          .findIndex((r) => r.body.stream),
      );
      await chat.sendButton.waitFor();

      await eventually(async () => (await messagesOf(api)).at(-1)).toMatchObject({ isUser: false, status: 'stopped' });
      const stored = (await messagesOf(api)).at(-1)!;
      expect(story.startsWith(stored.text)).toBe(true);
      expect(stored.text.length).toBeLessThan(story.length);
      await s.page.reload();
      await chat.ready();
      expect(await chat.lastAnswer.getAttribute('data-status')).toBe('stopped');
      expect(await chat.lastAnswer.getByTestId('answer-stopped').textContent()).toBe('Stopped');
    });

    it('shows a provider failure in the spec’s words, marked failed', async () => {
      const s = await suite.scenario();
      const { chat } = await newTrader(s);
      await chat.goto();
      ai().clear();
      ai().reply({ status: 500 }, { status: 500 }, { text: 'Failure' });
      await chat.ask('How did I do this week?');
      const answer = await chat.answered();
      expect(await answer.getAttribute('data-status')).toBe('failed');
      expect(await answer.getByTestId('answer-error').innerText()).toBe('Error connecting to AI API (500). Please try again later.');
    });

    it('runs nothing an answer smuggles in: no script, no event handler, no javascript: link, and links open apart', async () => {
      const s = await suite.scenario();
      const dialogs: string[] = [];
      s.page.on('dialog', (d) => {
        dialogs.push(d.message());
        void d.dismiss();
      });
      await s.context.addInitScript(() => {
        (window as unknown as { __xss: string[] }).__xss = [];
      });
      const { chat } = await newTrader(s);
      await chat.goto();
      ai().clear();
      ai().reply({
        text: [
          'Here you go <script>window.__xss.push("script"); alert("script")</script>',
          '',
          '<img src="x" onerror="window.__xss.push(\'img\'); alert(\'img\')">',
          '',
          '[Open your report](javascript:window.__xss.push("link");alert("link"))',
          '',
          '<a href="javascript:window.__xss.push(\'a\')">raw link</a> <iframe src="javascript:alert(1)"></iframe>',
          '',
          '![chart](https://example.com/track.png?pnl=100)',
          '',
          'See [the docs](https://example.com/docs).',
        ].join('\n'),
      });
      await chat.ask('Show me something');
      const answer = await chat.answered();
      const markdown = answer.getByTestId('answer-markdown');
      await markdown.getByText('Open your report').click();
      await markdown
        .getByText('raw link')
        .click()
        .catch(() => undefined);
      await s.page.waitForTimeout(300);
      expect(await s.page.evaluate(() => (window as unknown as { __xss: string[] }).__xss)).toEqual([]);
      expect(dialogs).toEqual([]);
      expect(await markdown.locator('script, iframe, img, [onerror]').count()).toBe(0);
      const hrefs = await markdown.locator('a').evaluateAll((links) => links.map((a) => a.getAttribute('href')));
      expect(
        hrefs.every((h) => h !== null && /^https:\/\//.test(h)),
        hrefs.join(', '),
      ).toBe(true);
      const docs = markdown.getByRole('link', { name: 'the docs' });
      expect(await docs.getAttribute('target')).toBe('_blank');
      expect(await docs.getAttribute('rel')).toContain('noopener');
      expect(new URL(s.page.url()).pathname).toBe('/reflect-ai');
    });

    it('follows the answer while the trader is at the bottom, and stays put once they scroll up', async () => {
      const s = await suite.scenario({ width: 390, height: 700 });
      const { chat } = await newTrader(s);
      await chat.goto();
      ai().clear();
      const lines = Array.from({ length: 80 }, (_, i) => `- Line ${i + 1} of a long answer\n`);
      ai().reply({ chunks: lines, delayMs: 60 });
      await chat.ask('Give me a long answer');
      const distance = () => chat.scroller.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight);
      await eventually(() => chat.lastAnswer.innerText()).toContain('Line 30 of');
      // The page scrolls after it renders the new text: on a busy machine the two can be measured apart.
      await eventually(distance).toBeLessThanOrEqual(100);
      await chat.scroller.evaluate((el) => el.scrollBy(0, -400));
      const top = await chat.scroller.evaluate((el) => el.scrollTop);
      await eventually(() => chat.lastAnswer.innerText()).toContain('Line 60 of');
      expect(await chat.scroller.evaluate((el) => el.scrollTop)).toBe(top);
      await chat.answered();
      await s.page.getByRole('button', { name: 'Latest' }).click();
      await eventually(distance).toBeLessThanOrEqual(1);
    });
  });

  describe('conversations', () => {
    it('groups the Chat History Today / Yesterday / Older, switches, deletes with confirmation, and New Chat starts one only after a message', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      ai().clear();
      const started: string[] = [];
      for (const [question, title] of [
        ['old question', 'Old one'],
        ['yesterday question', 'Yesterday one'],
        ['today question', 'Today one'],
      ] as const) {
        const session = started.length ? (await api.post('/api/chat/sessions')).body : (await api.get('/api/chat/sessions/current')).body;
        ai().reply({ text: `answer to ${question}`, only: 'stream' }, { text: title, only: 'non-stream' });
        expect((await postSse(api, '/api/chat', { sessionId: session.id, message: question })).status).toBe(200);
        started.push(session.id);
      }
      // Last activity yesterday (noon in the trader's zone) and ten days ago.
      const db = suite.e2e.app.server.database.db;
      await db.execute(sql`update chat_sessions set updated_at = ${`${addDays(today(), -1)}T16:00:00Z`}::timestamptz where id = ${started[1]}`);
      await db.execute(sql`update chat_sessions set updated_at = ${`${addDays(today(), -10)}T16:00:00Z`}::timestamptz where id = ${started[0]}`);

      await chat.goto();
      expect(await chat.title.innerText()).toBe('Today one');
      await chat.openHistory();
      const groups = chat.historyDialog.getByTestId('history-group');
      expect(await groups.evaluateAll((els) => els.map((el) => el.getAttribute('data-label')))).toEqual(['Today', 'Yesterday', 'Older']);
      expect(await groups.nth(0).getByTestId('history-title').allInnerTexts()).toEqual(['Today one']);
      expect(await groups.nth(1).getByTestId('history-title').allInnerTexts()).toEqual(['Yesterday one']);
      expect(await groups.nth(2).getByTestId('history-title').allInnerTexts()).toEqual(['Old one']);
      expect(await groups.nth(0).locator('[aria-current="true"]').count()).toBe(1);

      // Switch to yesterday's conversation.
      await chat.historyDialog.getByText('Yesterday one').click();
      await chat.historyDialog.waitFor({ state: 'hidden' });
      await eventually(() => chat.title.innerText()).toBe('Yesterday one');
      await eventually(() => chat.userMessages.allInnerTexts()).toEqual(['yesterday question']);

      // Delete the old one from the history: Cancel keeps it, Delete removes it.
      await chat.openHistory();
      await chat.historyDialog.getByRole('button', { name: 'Delete chat Old one' }).click();
      await chat.deleteDialog.waitFor();
      expect(await chat.deleteDialog.innerText()).toContain('Are you sure you want to delete "Old one"?');
      await chat.deleteDialog.getByRole('button', { name: 'Cancel' }).click();
      await chat.deleteDialog.waitFor({ state: 'hidden' });
      expect(await chat.historyDialog.getByTestId('history-title').allInnerTexts()).toContain('Old one');
      await chat.historyDialog.getByRole('button', { name: 'Delete chat Old one' }).click();
      await chat.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await chat.deleteDialog.waitFor({ state: 'hidden' });
      await eventually(() => chat.historyDialog.getByTestId('history-title').allInnerTexts()).toEqual(['Today one', 'Yesterday one']);
      await s.page.keyboard.press('Escape');
      await chat.historyDialog.waitFor({ state: 'hidden' });

      // Delete the active conversation: the page switches to the one the server names (the newest left).
      await chat.menu('Delete chat');
      await chat.deleteDialog.getByRole('button', { name: 'Delete', exact: true }).click();
      await eventually(() => chat.title.innerText()).toBe('Today one');
      await eventually(() => chat.userMessages.allInnerTexts()).toEqual(['today question']);
      const ids = () => api.get('/api/chat/sessions').then((r) => r.body.map((x: { id: string }) => x.id));
      expect(await ids()).toEqual([started[2]]);

      // New Chat: a fresh conversation with the welcome screen; pressed again while it is empty, nothing happens.
      await chat.newChat.click();
      await chat.welcome.waitFor();
      await eventually(() => chat.title.innerText()).toBe('New Conversation');
      await eventually(ids).toHaveLength(2);
      await chat.newChat.click();
      await s.page.waitForTimeout(500);
      expect(await ids()).toHaveLength(2);
      expect(await chat.welcome.isVisible()).toBe(true);

      // Opening the page again shows the newest conversation, the new one.
      await new Shell(s.page).goto('/trade-log');
      await chat.goto();
      expect(await chat.title.innerText()).toBe('New Conversation');
      await chat.welcome.waitFor();
    });

    it('renames a conversation by its title, and clearing it brings back the welcome screen and New Conversation', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      await chat.goto();
      ai().clear();
      // The title is asked for after the answer is stored; the trader need not wait for it to ask again.
      ai().reply({ text: 'Your week was green.', only: 'stream' }, { text: 'Weekly review', delayMs: 3_000, only: 'non-stream' });
      await chat.ask('How was my week?');
      await chat.answered();
      expect(await chat.title.innerText()).toBe('New Conversation');
      await chat.sendButton.waitFor();
      await eventually(() => chat.title.innerText()).toBe('Weekly review');

      await chat.rename('NQ opening range');
      await eventually(() => chat.title.innerText()).toBe('NQ opening range');
      expect(await s.page.title()).toBe('NQ opening range · ReflectAI');
      expect((await api.get('/api/chat/sessions')).body[0].title).toBe('NQ opening range');
      // Escape leaves the title as it was.
      await s.page.getByRole('button', { name: 'Rename chat' }).click();
      await s.page.getByTestId('rename-input').fill('Something else');
      await s.page.getByTestId('rename-input').press('Escape');
      expect(await chat.title.innerText()).toBe('NQ opening range');
      await s.page.waitForTimeout(500);
      expect(await chat.title.innerText()).toBe('NQ opening range');
      expect((await api.get('/api/chat/sessions')).body[0].title).toBe('NQ opening range');

      await chat.menu('Clear chat');
      await s.page.getByTestId('confirm-clear-chat').click();
      await chat.welcome.waitFor();
      await eventually(() => chat.title.innerText()).toBe('New Conversation');
      expect(await messagesOf(api)).toEqual([]);
    });
  });

  describe('DeepThink', () => {
    it('sends to the reasoning model and shows its reasoning in a collapsible Thinking block, kept after a reload', async () => {
      const s = await suite.scenario();
      const { api, chat } = await newTrader(s);
      await chat.goto();
      await chat.deepThink.check({ force: true });
      expect(await chat.deepThink.isChecked()).toBe(true);
      ai().clear();
      ai().reply(
        { reasoning: ['Compare ', 'the ', 'two ', 'sessions ', 'first.'], chunks: ['AM ', 'wins ', 'by ', '$140.00.'], delayMs: 200, only: 'stream' },
        { text: 'Session choice', only: 'non-stream' },
      );
      await chat.ask('Which session should I drop?');
      const thinking = chat.lastAnswer.getByTestId('thinking-block');
      await eventually(() => thinking.getByTestId('thinking-text').innerText()).toContain('Compare the two');
      const answer = await chat.answered();
      expect(await answer.getByTestId('answer-markdown').innerText()).toBe('AM wins by $140.00.');
      // This trader has no trades: $140.00 is the model's own figure, and the answer says so.
      expect(await answer.getByTestId('answer-unverified').innerText()).toContain(
        'The AI wrote $140.00, which is not among the figures Edgebook gave it.',
      );
      const toggle = thinking.getByRole('button', { name: 'Thinking' });
      if ((await toggle.getAttribute('aria-expanded')) === 'false') await toggle.click();
      await eventually(() => thinking.getByTestId('thinking-text').innerText()).toBe('Compare the two sessions first.');
      expect(ai().completions()[0]!.body.model).toBe('test-reasoning-model');
      expect((await messagesOf(api)).at(-1)).toMatchObject({
        mode: 'deepthink',
        reasoning: 'Compare the two sessions first.',
        text: 'AM wins by $140.00.',
      });
      await eventually(() => chat.title.innerText()).toBe('Session choice');

      await s.page.reload();
      await chat.ready();
      const stored = chat.lastAnswer.getByTestId('thinking-block');
      const storedToggle = stored.getByRole('button', { name: 'Thinking' });
      expect(await storedToggle.getAttribute('aria-expanded')).toBe('false');
      await storedToggle.click();
      await eventually(() => stored.getByTestId('thinking-text').innerText()).toBe('Compare the two sessions first.');
      await storedToggle.click();
      await eventually(() => storedToggle.getAttribute('aria-expanded')).toBe('false');
    });

    it('says DeepThink Error in the spec’s words when the provider fails', async () => {
      const s = await suite.scenario();
      const { chat } = await newTrader(s);
      await chat.goto();
      await chat.deepThink.check({ force: true });
      ai().clear();
      ai().reply({ status: 500 }, { status: 500 }, { text: 'x' });
      await chat.ask('Think hard about my week');
      const answer = await chat.answered();
      const error = answer.getByTestId('answer-error');
      expect(await error.innerText()).toContain('DeepThink Error');
      expect(await error.innerText()).toContain('Error connecting to DeepThink API. Please try again later.');
    });
  });

  describe('screens', () => {
    for (const colorScheme of ['dark', 'light'] as const) {
      for (const [name, width, height] of [
        ['desktop', 1440, 900],
        ['phone', 390, 844],
      ] as const) {
        it(`${name} in ${colorScheme}: no serious axe violations, nothing wider than the screen`, async () => {
          const s = await suite.scenario({ width, height, colorScheme });
          await useAppTheme(s.context, colorScheme);
          await s.page.emulateMedia({ reducedMotion: 'reduce' });
          const { api, chat } = await newTrader(s);
          await api.patch('/api/profile', { display_name: 'Alex' });
          await createTrade(api, { date: today(), period: 'AM', pnl: '100' });
          await createTrade(api, { date: today(), period: 'PM', pnl: '-40' });
          await createTrade(api, { date: today(), period: 'Lunch', pnl: '25.50' });
          await chat.goto();
          await waitForAnimations(s.page);
          const fits = async () => expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
          await fits();
          let violations = await seriousA11yViolations(s.page);
          expect(violations, violations.join('\n')).toEqual([]);
          await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-ai-welcome-${name}-${colorScheme}.png`) });

          ai().clear();
          ai().reply(
            { toolCalls: [{ name: 'get_pnl_breakdown', arguments: { by: 'session' } }], only: 'stream' },
            { chunks: TABLE_ANSWER, only: 'stream' },
            { text: 'AM versus PM', only: 'non-stream' },
          );
          await chat.ask('Which session is better for my trading?');
          await chat.answered();
          await chat.deepThink.check({ force: true });
          ai().reply({
            reasoning: 'The AM session made $100.00 and PM lost $40.00, so AM is the better one.',
            text: 'Keep the **AM** session.',
            only: 'stream',
          });
          await chat.ask('So which one should I keep?');
          await eventually(() => chat.answers.count()).toBe(2);
          const last = await chat.answered();
          await last.getByRole('button', { name: 'Thinking' }).click();
          await eventually(() => chat.title.innerText()).toBe('AM versus PM');
          await waitForAnimations(s.page);
          await fits();
          violations = await seriousA11yViolations(s.page);
          expect(violations, violations.join('\n')).toEqual([]);
          await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-ai-conversation-end-${name}-${colorScheme}.png`) });
          await chat.scroller.evaluate((el) => (el.scrollTop = 0));
          await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-ai-conversation-${name}-${colorScheme}.png`) });
          await chat.openHistory();
          await waitForAnimations(s.page);
          violations = await seriousA11yViolations(s.page);
          expect(violations, violations.join('\n')).toEqual([]);
          await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-ai-history-${name}-${colorScheme}.png`) });
        });
      }
    }
  });
});

describe('ReflectAI on a server without an AI provider', () => {
  const suite = useE2ESuite();

  it('says AI is not configured and how to configure it, keeps the question box off, and DeepThink says ask the administrator', async () => {
    const s = await suite.scenario({ width: 390, height: 844, colorScheme: 'light' });
    await s.context.addInitScript(() => {
      if (window.location.protocol.startsWith('http')) window.localStorage.setItem('theme', 'light');
    });
    const { chat } = await trader(s, suite.e2e.app);
    await chat.goto();
    await chat.welcome.waitFor();
    const notice = s.page.getByTestId('ai-not-configured');
    expect(await notice.innerText()).toContain('AI is not configured on this server. Ask the administrator to set AI_BASE_URL and AI_API_KEY');
    expect(await chat.input.isDisabled()).toBe(true);
    expect(await chat.sendButton.isDisabled()).toBe(true);
    expect(await s.page.getByTestId('chat-suggestion').first().isDisabled()).toBe(true);

    // DeepThink needs a provider too: the toggle says so and stays off.
    await chat.deepThink.click({ force: true });
    await chat.toast('Ask the administrator').filter({ hasText: 'DeepThink Not Configured' }).waitFor();
    expect(await chat.deepThink.isChecked()).toBe(false);
    await waitForAnimations(s.page);
    const violations = await seriousA11yViolations(s.page);
    expect(violations, violations.join('\n')).toEqual([]);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'reflect-ai-not-configured-phone-light.png') });
  });
});
