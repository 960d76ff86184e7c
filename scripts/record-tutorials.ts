/**
 * Records the tutorial videos and the /intro screenshots from the real app:
 * starts Edgebook on an in-memory database, fills a demo trader's journal through the API, drives Debian's Chromium
 * through each walk-through with captions, and encodes the recordings with Debian's ffmpeg (VP9 WebM, WebP stills).
 * Run it again when the screens change:
 *
 *   npx tsx scripts/record-tutorials.ts              # everything
 *   npx tsx scripts/record-tutorials.ts trades-log intro
 *
 * Output (committed, so that neither `npm start` nor CI needs ffmpeg): src/web/public/tutorials/*.webm, *.webp
 * (posters) and *.vtt (captions), src/web/public/intro/*.webp. Needs `apt-get install ffmpeg chromium`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/server';
import { aiEnv, startAiServer, type AiServer } from '../tests/support/ai-server';

const root = path.resolve(import.meta.dirname, '..');
const tutorialsDir = path.join(root, 'src/web/public/tutorials');
const introDir = path.join(root, 'src/web/public/intro');
const VIDEO = { width: 1280, height: 720 };
/** The name the app shows for the scripted analyst: no real model answered. */
const DEMO_MODEL = 'demo-analyst';

type Job = 'trades-log' | 'reflect-page' | 'reflectai' | 'intro';
const ALL: Job[] = ['trades-log', 'reflect-page', 'reflectai', 'intro'];

/** A signed-in API client with its own cookie jar (the demo trader). */
class Client {
  cookies = new Map<string, string>();
  constructor(readonly base: string) {}
  async call<T = any>(method: string, p: string, body?: unknown): Promise<T> {
    const res = await fetch(this.base + p, {
      method,
      headers: {
        origin: this.base,
        cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const eq = pair.indexOf('=');
      this.cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

function ymd(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A month of plausible futures trades, so the calendar, statistics and charts have something to show. */
async function fillJournal(client: Client) {
  await client.call('POST', '/api/onboarding');
  const account = await client.call<{ id: string }>('POST', '/api/accounts', {
    name: 'Apex 50K Eval',
    description: 'Evaluation account',
    is_default: true,
  });
  const setups = ['A/A+', 'Breakout', 'Trend Continuation', 'Reversal'];
  const sessions = ['AM', 'AM', 'PM', 'Lunch'];
  const symbols = ['NQ', 'ES', 'MNQ', 'NQ'];
  const pnls = [420, -180, 265.5, 0, 610, -95, 340, -260, 150, 505, -120, 75];
  const today = new Date();
  let day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
  let i = 0;
  while (day < today && i < 40) {
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) {
      for (let n = 0; n < 2; n++, i++) {
        const pnl = pnls[i % pnls.length]!;
        await client.call('POST', '/api/trades', {
          date: ymd(day),
          symbol: symbols[i % symbols.length],
          period: sessions[i % sessions.length],
          trade_type: setups[i % setups.length],
          pnl: String(pnl),
          commission: '4.20',
          account_id: account.id,
          tags: pnl >= 0 ? ['Followed plan'] : ['Early entry'],
          notes: pnl >= 0 ? 'Waited for the retest, scaled out at the target.' : 'Entered before confirmation.',
        });
      }
    }
    day = new Date(day.getTime() + 86_400_000);
  }
  return account;
}

/** The reflection analyst's answer: words only, no figures (the dialog shows Edgebook's own). */
const REFLECT_ANALYSIS = JSON.stringify({
  summary: { patterns: ['The trades where you followed your plan made the month; early entries gave part of it back.'] },
  strengths: ['You waited for the retest before entering and scaled out at your targets.'],
  weaknesses: ['Every losing trade was an entry before confirmation.'],
  suggestions: ['Wait for a confirmed retest before every entry.'],
  actionPlan: ['Trade only the morning session tomorrow.', 'Write down the confirmation you wait for before each entry.'],
});

interface SessionRow {
  session: string;
  trades: number;
  win_rate: string;
  net_pnl: string;
}

/** Money as the tools write it ('$1,234.50', '-$40.00'), in cents, to find the best and worst session. */
const cents = (money: string) => Math.round(Number(money.replace(/[$,]/g, '')) * 100);

/** The rows of the last get_pnl_breakdown result in a chat request (the tool's JSON, as the app sent it). */
function sessionRows(body: { messages?: Array<{ role: string; content: unknown }> }): SessionRow[] {
  const tool = [...(body.messages ?? [])].reverse().find((m) => m.role === 'tool');
  const parsed = typeof tool?.content === 'string' ? (JSON.parse(tool.content) as { rows?: SessionRow[] }) : null;
  if (!parsed?.rows?.length) throw new Error('the scripted analyst found no session breakdown in the request');
  return parsed.rows;
}

/**
 * The analyst's replies for the ReflectAI walk-through: a tool call, then an answer written from the tool's result
 * (so every figure is one Edgebook computed), a title, and a DeepThink answer that repeats figures from the first.
 */
function scriptChat(ai: AiServer) {
  let figures: { best: SessionRow; worst: SessionRow } | null = null;
  ai.reply(
    { toolCalls: [{ name: 'get_pnl_breakdown', arguments: { by: 'session' } }], only: 'stream', delayMs: 400 },
    {
      only: 'stream',
      delayMs: 45,
      answer(body) {
        const rows = sessionRows(body);
        const sorted = [...rows].sort((a, b) => cents(b.net_pnl) - cents(a.net_pnl));
        figures = { best: sorted[0]!, worst: sorted.at(-1)! };
        const { best, worst } = figures;
        const table = [
          '| Session | Trades | Win rate | Net P&L |',
          '|---|---|---|---|',
          ...sorted.map((r) => `| ${r.session} | ${r.trades} | ${r.win_rate} | ${r.net_pnl} |`),
        ];
        const text = [
          `Your **${best.session}** session is your best: ${best.trades} trades, a ${best.win_rate} win rate and ${best.net_pnl} net.\n\n`,
          `${table.join('\n')}\n\n`,
          `**${worst.session}** is the weakest at ${worst.net_pnl} net.\n\n`,
          `- Keep your full size for the ${best.session} session\n`,
          `- Review your ${worst.session} trades before taking more\n`,
        ].join('');
        return { chunks: text.match(/[^\n]{1,24}\n?|\n/g)! };
      },
    },
    { text: 'Best trading session', only: 'non-stream' },
    {
      only: 'stream',
      delayMs: 40,
      answer() {
        if (!figures) throw new Error('the DeepThink answer needs the first answer');
        const { best, worst } = figures;
        return {
          reasoning: `The breakdown showed ${worst.session} as the weakest session at ${worst.net_pnl} net, while ${best.session} made ${best.net_pnl}. Stopping the weakest session keeps the best one untouched, so the question is whether ${worst.session} trades follow the plan.`,
          text: `Consider pausing **${worst.session}** trades: it is your weakest session at ${worst.net_pnl} net, while ${best.session} made ${best.net_pnl}. Review your ${worst.session} trades for a week, and take one only when it meets every rule of your plan.`,
        };
      },
    },
  );
}

/** The ReflectAI walk-through's first question, asked through the API when the intro is recorded without it. */
async function ensureConversation(client: Client, ai: AiServer) {
  const current = await client.call<{ id: string }>('GET', '/api/chat/sessions/current');
  const messages = await client.call<unknown[]>('GET', `/api/chat/sessions/${current.id}/messages`);
  if (messages.length > 0) return;
  ai.clear();
  scriptChat(ai);
  // The answer streams as Server-Sent Events: read to the end, the conversation is then stored.
  const res = await fetch(`${client.base}/api/chat`, {
    method: 'POST',
    headers: {
      origin: client.base,
      cookie: [...client.cookies].map(([k, v]) => `${k}=${v}`).join('; '),
      'content-type': 'application/json',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ sessionId: current.id, message: 'Which session is best for my trading?' }),
  });
  const stream = await res.text();
  const stored = await client.call<Array<{ status: string }>>('GET', `/api/chat/sessions/${current.id}/messages`);
  if (!res.ok || stored.at(-1)?.status !== 'complete')
    throw new Error(`the ReflectAI question for the intro failed: ${res.status} ${stream.slice(0, 300)}`);
  ai.clear();
}

/** The caption bar and a visible pointer, injected into every page of the recording. */
const OVERLAY = `
(() => {
  const install = () => {
    if (document.getElementById('rec-pointer')) return;
    const pointer = document.createElement('div');
    pointer.id = 'rec-pointer';
    Object.assign(pointer.style, { position: 'fixed', width: '18px', height: '18px', marginLeft: '-9px', marginTop: '-9px',
      borderRadius: '50%', background: 'rgba(255,255,255,0.85)', border: '2px solid #4c6ef5', zIndex: 2147483647,
      pointerEvents: 'none', left: '-40px', top: '-40px', transition: 'transform 120ms' });
    document.body.appendChild(pointer);
    document.addEventListener('mousemove', (e) => { pointer.style.left = e.clientX + 'px'; pointer.style.top = e.clientY + 'px'; }, true);
    document.addEventListener('mousedown', () => { pointer.style.transform = 'scale(0.7)'; }, true);
    document.addEventListener('mouseup', () => { pointer.style.transform = 'none'; }, true);
  };
  if (document.body) install(); else document.addEventListener('DOMContentLoaded', install);
})();`;

/**
 * The captions of the recording under way, each with the screencast frame it first shows in: they become the video's
 * WebVTT captions, timed on the video's own clock. `also` is a second line saying what is typed or chosen
 * while the caption shows.
 */
let shownCaptions: Array<{ frame: number; lines: string[] }> | null = null;
let framesSoFar = () => 0;

async function caption(page: Page, text: string, holdMs = 2600, also?: string) {
  await page.evaluate((t) => {
    let bar = document.getElementById('rec-caption');
    if (!bar) {
      bar = document.createElement('div');
      bar.id = 'rec-caption';
      Object.assign(bar.style, {
        position: 'fixed',
        left: '50%',
        bottom: '28px',
        transform: 'translateX(-50%)',
        maxWidth: '80%',
        padding: '10px 18px',
        borderRadius: '10px',
        background: 'rgba(17,19,24,0.88)',
        color: '#fff',
        font: '600 18px/1.4 system-ui, sans-serif',
        zIndex: '2147483646',
        pointerEvents: 'none',
        textAlign: 'center',
        boxShadow: '0 6px 24px rgba(0,0,0,0.35)',
      });
      document.body.appendChild(bar);
    }
    bar.textContent = t;
  }, text);
  shownCaptions?.push({ frame: framesSoFar(), lines: also ? [text, also] : [text] });
  await page.waitForTimeout(holdMs);
}

/** hh:mm:ss.mmm */
function vttTime(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  return `${pad(Math.floor(ms / 3_600_000))}:${pad(Math.floor(ms / 60_000) % 60)}:${pad(Math.floor(ms / 1000) % 60)}.${pad(ms % 1000, 3)}`;
}

/** The WebVTT file of a recording: each caption from the frame it first shows in to the next one, or the end. */
function writeCaptions(
  out: string,
  video: string,
  captions: Array<{ frame: number; lines: string[] }>,
  frameTime: (frame: number) => number,
  duration: number,
) {
  const cues = captions.map((c, i) => {
    const start = i === 0 ? 0 : frameTime(c.frame);
    const end = i + 1 < captions.length ? frameTime(captions[i + 1]!.frame) : duration;
    return `${vttTime(start)} --> ${vttTime(end)}\n${c.lines.join('\n')}`;
  });
  const note = [
    'NOTE',
    `Captions of ${video}: the words shown on screen, at the times they show, and what is typed or chosen while they`,
    'show. The video has no sound. Written by scripts/record-tutorials.ts with the recording.',
  ].join('\n');
  fs.writeFileSync(out, `WEBVTT\n\n${note}\n\n${cues.join('\n\n')}\n`);
}

/** Moves the pointer to the element as a person would, then clicks it. */
async function clickOn(page: Page, target: Locator) {
  await target.scrollIntoViewIfNeeded();
  const box = await target.boundingBox();
  if (box) await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 18 });
  await page.waitForTimeout(250);
  await target.click();
  await page.waitForTimeout(400);
}

async function typeInto(page: Page, target: Locator, text: string) {
  await clickOn(page, target);
  await target.fill('');
  await target.pressSequentially(text, { delay: 60 });
}

/** Each walk-through opens its page (not recorded), then runs while the screencast records. */
interface Walkthrough {
  open: (page: Page, ai: AiServer) => Promise<void>;
  run: (page: Page) => Promise<void>;
}

const walkthroughs: Record<Exclude<Job, 'intro'>, Walkthrough> = {
  'trades-log': {
    async open(page) {
      await page.goto('/trade-log');
      await page.getByRole('heading', { name: 'Trade Log', level: 1 }).waitFor();
      await page.getByTestId('trade-row').first().waitFor();
      await page.waitForTimeout(1000);
    },
    async run(page) {
      await caption(page, 'The Trade Log: every trade of the selected trading account, newest first.');
      await clickOn(page, page.getByTestId('add-trade'));
      const dialog = page.getByRole('dialog', { name: 'Add New Trade' });
      await dialog.waitFor();
      await caption(
        page,
        'Add a trade: date, instrument, session, setup, result and P&L.',
        2000,
        '(ES, a Win, P&L 387.50, commission 4.20, and a note: “Opening drive long, held to the prior high.”)',
      );
      await typeInto(page, dialog.getByTestId('trade-instrument'), 'ES');
      await clickOn(page, dialog.getByTestId('trade-result-input').getByText('Win', { exact: true }));
      await typeInto(page, dialog.getByTestId('trade-pnl-input'), '387.50');
      await typeInto(page, dialog.getByTestId('trade-commission'), '4.20');
      await typeInto(page, dialog.getByTestId('trade-notes'), 'Opening drive long, held to the prior high.');
      await caption(
        page,
        'Commission is taken off: the net P&L is exact to the cent.',
        2200,
        '(Net PnL $383.30 after $4.20 commission, saved as Win.)',
      );
      await clickOn(page, dialog.getByTestId('trade-submit'));
      await dialog.waitFor({ state: 'hidden' });
      await caption(page, 'The new trade is at the top, and the statistics update at once.');
      await clickOn(page, page.getByLabel('Search trades'));
      await page.getByLabel('Search trades').pressSequentially('Breakout', { delay: 90 });
      await caption(page, 'Search by instrument, setup, tag or notes.', undefined, '(Searching “Breakout”.)');
      await page.getByLabel('Search trades').fill('');
      await page.getByTestId('stats-panel').scrollIntoViewIfNeeded();
      await caption(page, 'Statistics: win rate, net P&L, profit factor and trade count.');
      await page.getByTestId('analysis-panel').scrollIntoViewIfNeeded();
      await caption(page, 'Trade Analysis: results by week and by day of the week.', 3000);
      await page.evaluate(() => window.scrollTo({ top: 0 }));
      await clickOn(page, page.getByTestId('toggle-maximize'));
      await caption(page, 'Maximize the table to scroll through every trade and edit in place.', 3000);
      await clickOn(page, page.getByTestId('toggle-maximize'));
      await caption(page, 'Import CSV or JSON exports from your platform with the Import button.', 3000);
    },
  },
  'reflect-page': {
    async open(page, ai) {
      // The analyst's words are scripted (the OpenAI-compatible test server); every figure on screen is Edgebook's own.
      ai.reply({ chunks: REFLECT_ANALYSIS.match(/.{1,40}/g)!, delayMs: 30 });
      await page.goto('/reflect');
      await page.getByRole('heading', { name: 'Trade Reflections', level: 1 }).waitFor();
      await page.locator('[data-testid="reflections"], [data-testid="reflections-empty"]').first().waitFor();
      await page.waitForTimeout(800);
    },
    async run(page) {
      await caption(page, 'Trade Reflections: review your trades by day, week or month.', 2600, '(Month is chosen.)');
      await clickOn(page, page.getByRole('tab', { name: 'Month', exact: true }));
      await page
        .getByTestId('period-label')
        .filter({ hasText: /^This Month$/ })
        .waitFor();
      await page.getByTestId('reflections').waitFor();
      await caption(page, 'The summary: total trades, win rate and rule adherence for the period.', 2600);
      const card = page.getByTestId('reflection-card').first();
      await clickOn(page, card.getByTestId('rule-adherence'));
      await caption(page, 'Mark whether each trade followed your rules; rule adherence updates at once.', 2600);
      await clickOn(page, page.getByTestId('reflection-card').nth(1).getByTestId('rule-adherence'));
      await clickOn(page, page.getByTestId('reflection-card').nth(1).getByTestId('rule-adherence'));
      await page.getByTestId('trading-insights').scrollIntoViewIfNeeded();
      await caption(page, 'Period stats, tags analysis and trading insights sit beside the trades.', 2800);
      await page.evaluate(() => window.scrollTo({ top: 0 }));
      await clickOn(page, page.getByTestId('period-previous'));
      await page
        .getByTestId('period-label')
        .filter({ hasText: /^Last Month$/ })
        .waitFor();
      await caption(page, 'Step back through earlier periods with the arrows.', 2000, '(Last Month, then back to This Month, then Summarize.)');
      await clickOn(page, page.getByTestId('period-next'));
      await page.getByTestId('reflections').waitFor();
      await clickOn(page, page.getByRole('button', { name: 'Summarize' }));
      const summary = page.getByTestId('summary-dialog');
      await summary.getByTestId('summary-headline').waitFor();
      await caption(page, 'Summarize: the period in a few lines, computed from your trades.', 3000);
      await page.keyboard.press('Escape');
      await summary.waitFor({ state: 'hidden' });
      await clickOn(page, page.getByTestId('ai-analysis'));
      const dialog = page.getByRole('dialog').filter({ hasText: 'AI Trade Analysis' });
      await dialog.getByTestId('analysis-source').filter({ hasText: 'AI analyst' }).waitFor({ timeout: 60_000 });
      await caption(page, 'AI Analysis: your figures from Edgebook, with the analyst’s patterns and insights.', 3200);
      await clickOn(page, dialog.getByRole('tab', { name: 'Insights' }));
      await caption(page, 'Strengths, weaknesses and suggestions.', 2400);
      await clickOn(page, dialog.getByRole('tab', { name: 'Action Plan' }));
      await caption(page, 'An action plan for the next session. Export the report as JSON or text.', 3000);
    },
  },
  reflectai: {
    async open(page, ai) {
      scriptChat(ai);
      await page.goto('/reflect-ai');
      await page.getByRole('heading', { name: 'ReflectAI', level: 1 }).waitFor();
      await page.getByTestId('chat-welcome').waitFor();
      await page.waitForTimeout(800);
    },
    async run(page) {
      await caption(page, 'ReflectAI: ask the AI analyst about your own trading.', 3000, '(The question: “Which session is best for my trading?”)');
      const input = page.getByTestId('chat-input');
      await typeInto(page, input, 'Which session is best for my trading?');
      await input.press('Enter');
      const answer = page.getByTestId('answer').last();
      await answer
        .getByTestId('answer-tool')
        .waitFor({ timeout: 30_000 })
        .catch(() => undefined);
      await caption(page, 'The analyst computes the figures with Edgebook’s own tools over your trades.', 2000);
      await answer.and(page.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
      await answer.getByTestId('answer-chart').scrollIntoViewIfNeeded();
      await caption(page, 'Every answer shows its chart and what it was computed from.', 3400);
      await clickOn(page, page.getByRole('switch', { name: 'DeepThink' }));
      await caption(
        page,
        'DeepThink reasons through harder questions step by step.',
        2200,
        '(The question: “Should I stop trading my weakest session?”)',
      );
      await typeInto(page, input, 'Should I stop trading my weakest session?');
      await input.press('Enter');
      const deep = page.getByTestId('answer').nth(1);
      await deep.and(page.locator('[data-status="complete"]')).waitFor({ timeout: 60_000 });
      const thinking = deep.getByRole('button', { name: 'Thinking' });
      if (await thinking.count()) await clickOn(page, thinking);
      await caption(page, 'Open its thinking to see how it got there.', 3000);
      await clickOn(page, page.getByTestId('open-history'));
      await page.getByRole('dialog', { name: 'Chat History' }).getByTestId('history-session').first().waitFor();
      await caption(page, 'Your conversations are kept: reopen, rename or delete them from Chat History.', 3200);
      await page.keyboard.press('Escape');
    },
  },
};

/**
 * Records a page with Chromium's own screencast (Playwright's recordVideo would need a browser build of ffmpeg):
 * every painted frame as a JPEG with its timestamp, which ffmpeg's concat demuxer turns into a video at the pace
 * the walk-through really had.
 */
async function startScreencast(page: Page, dir: string) {
  fs.mkdirSync(dir, { recursive: true });
  const cdp = await page.context().newCDPSession(page);
  const frames: Array<{ file: string; at: number }> = [];
  cdp.on('Page.screencastFrame', (frame) => {
    const file = path.join(dir, `frame-${String(frames.length).padStart(6, '0')}.jpg`);
    fs.writeFileSync(file, Buffer.from(frame.data, 'base64'));
    frames.push({ file, at: frame.metadata.timestamp ?? Date.now() / 1000 });
    void cdp.send('Page.screencastFrameAck', { sessionId: frame.sessionId }).catch(() => undefined);
  });
  await cdp.send('Page.startScreencast', { format: 'jpeg', quality: 90, maxWidth: VIDEO.width, maxHeight: VIDEO.height, everyNthFrame: 1 });
  const captions: Array<{ frame: number; lines: string[] }> = [];
  shownCaptions = captions;
  framesSoFar = () => frames.length;
  return async (out: string) => {
    await cdp.send('Page.stopScreencast');
    shownCaptions = null;
    const end = Date.now() / 1000;
    // The video's clock is the frames' own (each lasts until the next), as the concat list below builds it.
    const first = frames[0]!.at;
    const frameTime = (frame: number) => (frames[frame]?.at ?? end) - first;
    writeCaptions(out.replace(/\.webm$/, '.vtt'), path.basename(out), captions, frameTime, end + 1 - first);
    const list = frames.map((f, i) => `file '${f.file}'\nduration ${Math.max(0.01, (frames[i + 1]?.at ?? end + 1) - f.at).toFixed(3)}`).join('\n');
    const listFile = path.join(dir, 'frames.txt');
    // The concat demuxer ignores the last entry's duration unless the file is listed once more.
    fs.writeFileSync(listFile, `${list}\nfile '${frames.at(-1)!.file}'\n`);
    // 15 frames per second and a high CRF: screens of text compress well, and each video stays small.
    ffmpeg([
      '-f',
      'concat',
      '-safe',
      '0',
      '-i',
      listFile,
      '-an',
      '-vf',
      `fps=15,scale=${VIDEO.width}:${VIDEO.height}:force_original_aspect_ratio=decrease,pad=${VIDEO.width}:${VIDEO.height}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`,
      '-c:v',
      'libvpx-vp9',
      '-b:v',
      '0',
      '-crf',
      '42',
      '-row-mt',
      '1',
      '-deadline',
      'good',
      '-cpu-used',
      '4',
      out,
    ]);
  };
}

function ffmpeg(args: string[]) {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'inherit' });
  if (result.error || result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed (is Debian's ffmpeg installed?)`);
}

async function newContext(browserContext: () => Promise<BrowserContext>, cookies: Client, base: string) {
  const context = await browserContext();
  await context.addCookies([...cookies.cookies].map(([name, value]) => ({ name, value, url: base, httpOnly: true, sameSite: 'Lax' as const })));
  await context.addInitScript(OVERLAY);
  // Dark theme, sidebar as the app leaves it, intro seen.
  await context.addInitScript(() => {
    if (!window.location.protocol.startsWith('http')) return;
    window.localStorage.setItem('has_seen_intro', 'true');
  });
  return context;
}

async function main() {
  const jobs = (process.argv.slice(2) as Job[]).filter((j) => ALL.includes(j));
  const todo = jobs.length > 0 ? jobs : ALL;
  spawnSync(process.execPath, [path.join(root, 'scripts/build-if-needed.mjs')], { stdio: 'inherit' });
  fs.mkdirSync(tutorialsDir, { recursive: true });
  fs.mkdirSync(introDir, { recursive: true });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-record-'));

  const ai = await startAiServer();
  const server: RunningServer = await startServer({
    env: {
      ...aiEnv(ai, { AI_MODEL: DEMO_MODEL, AI_REASONING_MODEL: DEMO_MODEL }),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: '0',
      DATA_DIR: 'memory://',
      AUTH_RATE_LIMIT: '1000',
      LOG_LEVEL: 'warn',
    },
  });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--hide-scrollbars',
    ],
  });
  try {
    const client = new Client(server.url);
    await client.call('POST', '/api/auth/sign-up/email', { email: 'ada@example.com', password: 'demo-password-1', name: 'Ada' });
    await client.call('PATCH', '/api/profile', { display_name: 'Ada', first_name: 'Ada', last_name: 'Lovelace' });
    await fillJournal(client);

    for (const job of todo) {
      if (job === 'intro') continue;
      const context = await newContext(() => browser.newContext({ baseURL: server.url, viewport: VIDEO, colorScheme: 'dark' }), client, server.url);
      const page = await context.newPage();
      console.log(`recording ${job}...`);
      await walkthroughs[job].open(page, ai);
      const finish = await startScreencast(page, path.join(tmp, job));
      await walkthroughs[job].run(page);
      await page.waitForTimeout(800);
      const out = path.join(tutorialsDir, `${job}.webm`);
      await finish(out);
      await context.close();
      ffmpeg(['-ss', '2.5', '-i', out, '-frames:v', '1', '-c:v', 'libwebp', '-quality', '70', path.join(tutorialsDir, `${job}.webp`)]);
      console.log(`  ${path.relative(root, out)}: ${(fs.statSync(out).size / 1024).toFixed(0)} kB`);
    }

    if (todo.includes('intro')) {
      await ensureConversation(client, ai);
      for (const scheme of ['dark', 'light'] as const) {
        const context = await newContext(
          () => browser.newContext({ baseURL: server.url, viewport: { width: 1440, height: 900 }, colorScheme: scheme }),
          client,
          server.url,
        );
        await context.addInitScript((s) => {
          if (window.location.protocol.startsWith('http')) window.localStorage.setItem('theme', s);
        }, scheme);
        const page = await context.newPage();
        const shots: Array<[string, string, () => Promise<unknown>]> = [
          ['dashboard', '/', () => page.getByTestId('task-list').waitFor()],
          ['trade-log', '/trade-log', () => page.getByTestId('trade-row').first().waitFor()],
          [
            'reflect',
            '/reflect',
            async () => {
              await page.getByRole('tab', { name: 'Month', exact: true }).click();
              await page
                .getByTestId('period-label')
                .filter({ hasText: /^This Month$/ })
                .waitFor();
              await page.getByTestId('reflection-card').first().waitFor();
            },
          ],
          ['reflect-ai', '/reflect-ai', () => page.getByTestId('answer-chart').first().waitFor()],
        ];
        for (const [name, url, ready] of shots) {
          await page.goto(url);
          await ready();
          await page.waitForTimeout(1500);
          // A still shows no recording pointer.
          await page.evaluate(() => document.getElementById('rec-pointer')?.style.setProperty('display', 'none'));
          const png = path.join(tmp, `${name}-${scheme}.png`);
          await page.screenshot({ path: png });
          const out = path.join(introDir, `${name}-${scheme}.webp`);
          ffmpeg(['-i', png, '-vf', 'scale=1200:-1', '-c:v', 'libwebp', '-quality', '72', out]);
          console.log(`  ${path.relative(root, out)}: ${(fs.statSync(out).size / 1024).toFixed(0)} kB`);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
    await ai.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
