/**
 * Records the tutorial videos and the /intro screenshots from the real app (issue 11, spec part 2 "Tutorials"):
 * starts Edgebook on an in-memory database, fills a demo trader's journal through the API, drives Debian's Chromium
 * through each walk-through with captions, and encodes the recordings with Debian's ffmpeg (VP9 WebM, WebP stills).
 * Run it again when the screens change:
 *
 *   npx tsx scripts/record-tutorials.ts              # everything
 *   npx tsx scripts/record-tutorials.ts trades-log intro
 *
 * Output (committed, so that neither `npm start` nor CI needs ffmpeg): src/web/public/tutorials/*.webm and *.webp
 * (posters), src/web/public/intro/*.webp. Needs `apt-get install ffmpeg chromium`.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startServer, type RunningServer } from '../src/server/server';

const root = path.resolve(import.meta.dirname, '..');
const tutorialsDir = path.join(root, 'src/web/public/tutorials');
const introDir = path.join(root, 'src/web/public/intro');
const VIDEO = { width: 1280, height: 720 };

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
  const account = await client.call<{ id: string }>('POST', '/api/accounts', { name: 'Apex 50K Eval', description: 'Evaluation account', is_default: true });
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

async function caption(page: Page, text: string, holdMs = 2600) {
  await page.evaluate((t) => {
    let bar = document.getElementById('rec-caption');
    if (!bar) {
      bar = document.createElement('div');
      bar.id = 'rec-caption';
      Object.assign(bar.style, {
        position: 'fixed', left: '50%', bottom: '28px', transform: 'translateX(-50%)', maxWidth: '80%', padding: '10px 18px',
        borderRadius: '10px', background: 'rgba(17,19,24,0.88)', color: '#fff', font: '600 18px/1.4 system-ui, sans-serif',
        zIndex: '2147483646', pointerEvents: 'none', textAlign: 'center', boxShadow: '0 6px 24px rgba(0,0,0,0.35)',
      });
      document.body.appendChild(bar);
    }
    bar.textContent = t;
  }, text);
  await page.waitForTimeout(holdMs);
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
const walkthroughs: Record<Exclude<Job, 'intro'>, { open: (page: Page) => Promise<void>; run: (page: Page) => Promise<void> }> = {
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
    await caption(page, 'Add a trade: date, instrument, session, setup, result and P&L.', 2000);
    await typeInto(page, dialog.getByTestId('trade-instrument'), 'ES');
    await clickOn(page, dialog.getByTestId('trade-result-input').getByText('Win', { exact: true }));
    await typeInto(page, dialog.getByTestId('trade-pnl-input'), '387.50');
    await typeInto(page, dialog.getByTestId('trade-commission'), '4.20');
    await typeInto(page, dialog.getByTestId('trade-notes'), 'Opening drive long, held to the prior high.');
    await caption(page, 'Commission is taken off: the net P&L is exact to the cent.', 2200);
    await clickOn(page, dialog.getByTestId('trade-submit'));
    await dialog.waitFor({ state: 'hidden' });
    await caption(page, 'The new trade is at the top, and the statistics update at once.');
    await clickOn(page, page.getByLabel('Search trades'));
    await page.getByLabel('Search trades').pressSequentially('Breakout', { delay: 90 });
    await caption(page, 'Search by instrument, setup, tag or notes.');
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
    async open(page) {
      await page.goto('/reflect');
      await page.getByRole('heading', { name: 'Trade Reflections', level: 1 }).waitFor();
    },
    async run(page) {
      await caption(page, 'Trade Reflections: review your trades by day, week or month.', 3500);
    },
  },
  reflectai: {
    async open(page) {
      await page.goto('/reflect-ai');
    },
    async run(page) {
      await caption(page, 'ReflectAI: ask the analyst about your own numbers.', 3500);
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
  return async (out: string) => {
    await cdp.send('Page.stopScreencast');
    const end = Date.now() / 1000;
    const list = frames
      .map((f, i) => `file '${f.file}'\nduration ${Math.max(0.01, (frames[i + 1]?.at ?? end + 1) - f.at).toFixed(3)}`)
      .join('\n');
    const listFile = path.join(dir, 'frames.txt');
    // The concat demuxer ignores the last entry's duration unless the file is listed once more.
    fs.writeFileSync(listFile, `${list}\nfile '${frames.at(-1)!.file}'\n`);
    // 15 frames per second and a high CRF: screens of text compress well, and each video stays small.
    ffmpeg(['-f', 'concat', '-safe', '0', '-i', listFile, '-an', '-vf', `fps=15,scale=${VIDEO.width}:${VIDEO.height}:force_original_aspect_ratio=decrease,pad=${VIDEO.width}:${VIDEO.height}:(ow-iw)/2:(oh-ih)/2,format=yuv420p`,
      '-c:v', 'libvpx-vp9', '-b:v', '0', '-crf', '42', '-row-mt', '1', '-deadline', 'good', '-cpu-used', '4', out]);
  };
}

function ffmpeg(args: string[]) {
  const result = spawnSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: 'inherit' });
  if (result.error || result.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed (is Debian's ffmpeg installed?)`);
}

async function newContext(browserContext: () => Promise<BrowserContext>, cookies: Client, base: string) {
  const context = await browserContext();
  await context.addCookies(
    [...cookies.cookies].map(([name, value]) => ({ name, value, url: base, httpOnly: true, sameSite: 'Lax' as const })),
  );
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

  const server: RunningServer = await startServer({
    env: {
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
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--hide-scrollbars'],
  });
  try {
    const client = new Client(server.url);
    await client.call('POST', '/api/auth/sign-up/email', { email: 'ada@example.com', password: 'demo-password-1', name: 'Ada' });
    await client.call('PATCH', '/api/profile', { display_name: 'Ada', first_name: 'Ada', last_name: 'Lovelace' });
    await fillJournal(client);

    for (const job of todo) {
      if (job === 'intro') continue;
      const context = await newContext(
        () => browser.newContext({ baseURL: server.url, viewport: VIDEO, colorScheme: 'dark' }),
        client,
        server.url,
      );
      const page = await context.newPage();
      console.log(`recording ${job}...`);
      await walkthroughs[job].open(page);
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
        ];
        for (const [name, url, ready] of shots) {
          await page.goto(url);
          await ready();
          await page.waitForTimeout(1500);
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
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
