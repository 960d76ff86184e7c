import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import lighthouse, { desktopConfig } from 'lighthouse';
import { chromium, type BrowserContext } from 'playwright-core';
import { signUp, spawnServer, summarize, tempDir, type PostgresForBench, type Row } from '../lib';

const SUITE = 'first-screen';

/**
 * The first screen, in Chromium against the compiled server: the gzipped JavaScript fetched before the
 * page first renders (target ≤ 250 kB), and the paint metrics Lighthouse scores (FCP, LCP, TBT) for /intro signed
 * out and for the signed-in dashboard, at desktop size (1440 px) and as a phone (390 px, CPU slowed 4x as Lighthouse's
 * mobile run does; the network is the loopback, not Lighthouse's simulated 4G). The targets are the values Lighthouse
 * scores 0.9 (its p10 control points): desktop FCP 934 ms, LCP 1,200 ms, TBT 150 ms; mobile FCP 1,800 ms, LCP
 * 2,500 ms, TBT 200 ms. The database does not matter here: PGlite only.
 *
 * Then Lighthouse itself (its mobile preset: simulated slow 4G and a 4x slower CPU; and its desktop preset) scores
 * the same two screens in Debian's Chromium: the performance score (target ≥ 0.9) with its FCP, LCP, TBT and CLS.
 * Signed in, the session cookie travels as an extra header on every request (Lighthouse clears the origin's storage).
 */
export async function run(ctx: { postgres: PostgresForBench | null; quick: boolean }): Promise<Row[]> {
  const rows: Row[] = [];
  const dir = tempDir('first-screen');
  const { server } = await spawnServer({ DATA_DIR: dir });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  try {
    const { cookie } = await signUp(server.url);
    await fetch(`${server.url}/api/onboarding`, { method: 'POST', headers: { cookie, origin: server.url } });
    const loads = ctx.quick ? 3 : 10;
    for (const device of DEVICES) {
      for (const screen of ['/intro', 'dashboard'] as const) {
        const samples: Sample[] = [];
        const context = await browser.newContext({
          baseURL: server.url,
          viewport: device.viewport,
          isMobile: device.mobile,
          hasTouch: device.mobile,
        });
        try {
          if (screen === 'dashboard') await signIn(context, server.url, cookie);
          const page = await context.newPage();
          await page.addInitScript(OBSERVE);
          const cdp = await context.newCDPSession(page);
          await cdp.send('Emulation.setCPUThrottlingRate', { rate: device.cpuSlowdown });
          // A first load warms the server and, signed in, leaves the browser's signed-in hint as a trader's has it.
          await page.goto(screen === 'dashboard' ? '/' : '/intro');
          await page.waitForLoadState('networkidle');
          for (let i = 0; i < loads; i++) {
            await cdp.send('Network.clearBrowserCache').catch(() => undefined);
            await page.goto(screen === 'dashboard' ? '/' : '/intro');
            await page.waitForLoadState('networkidle');
            // Long tasks after the last request settle into TBT too; give them a moment to be reported.
            await page.waitForTimeout(500);
            await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint').length > 0);
            samples.push(await page.evaluate(READ, screen === 'dashboard' ? '[data-testid="dashboard-toolbar"]' : ''));
          }
        } finally {
          await context.close();
        }
        const label = `${screen === 'dashboard' ? 'dashboard (signed in)' : '/intro'}, ${device.name}`;
        const t = device.targets;
        rows.push(
          summarize(
            SUITE,
            `${label}: gzipped JS before first render`,
            'chromium',
            samples.map((s) => s.jsBytes / 1000),
            'kB',
            undefined,
            { limit: 250 },
          ),
          summarize(
            SUITE,
            `${label}: first contentful paint`,
            'chromium',
            samples.map((s) => s.fcp),
            'ms',
            undefined,
            { limit: t.fcp },
          ),
          summarize(
            SUITE,
            `${label}: largest contentful paint`,
            'chromium',
            samples.map((s) => s.lcp),
            'ms',
            undefined,
            { limit: t.lcp },
          ),
          summarize(
            SUITE,
            `${label}: total blocking time`,
            'chromium',
            samples.map((s) => s.tbt),
            'ms',
            undefined,
            { limit: t.tbt },
          ),
        );
      }
    }
    await browser.close();
    rows.push(...(await lighthouseRows(server.url, cookie, ctx.quick ? 1 : 3)));
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

interface Sample {
  jsBytes: number;
  fcp: number;
  lcp: number;
  tbt: number;
}

const DEVICES: Array<{
  name: string;
  viewport: { width: number; height: number };
  mobile: boolean;
  cpuSlowdown: number;
  targets: { fcp: number; lcp: number; tbt: number };
}> = [
  { name: 'desktop 1440 px', viewport: { width: 1440, height: 900 }, mobile: false, cpuSlowdown: 1, targets: { fcp: 934, lcp: 1200, tbt: 150 } },
  {
    name: 'phone 390 px, CPU 4x slower',
    viewport: { width: 390, height: 844 },
    mobile: true,
    cpuSlowdown: 4,
    targets: { fcp: 1800, lcp: 2500, tbt: 200 },
  },
];

async function signIn(context: BrowserContext, url: string, cookie: string) {
  await context.addCookies(
    cookie.split('; ').map((pair) => {
      const eq = pair.indexOf('=');
      return { name: pair.slice(0, eq), value: pair.slice(eq + 1), url };
    }),
  );
}

/** Runs in the page before its scripts: records long tasks, paints and LCP as they happen. */
const OBSERVE = () => {
  const w = window as unknown as { __firstScreen: { longTasks: Array<{ start: number; duration: number }>; lcp: number } };
  w.__firstScreen = { longTasks: [], lcp: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__firstScreen.longTasks.push({ start: e.startTime, duration: e.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__firstScreen.lcp = Math.max(w.__firstScreen.lcp, e.startTime);
  }).observe({ type: 'largest-contentful-paint', buffered: true });
  // The dashboard's own content first in the DOM: its first render.
  const selector = '[data-testid="dashboard-toolbar"]';
  const watch = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    performance.mark(`ready:${selector}`);
    watch.disconnect();
  });
  watch.observe(document, { childList: true, subtree: true });
};

/**
 * Reads the figures after the load. "Before first render": scripts requested before the screen's own content
 * (`ready`) was first in the DOM; what the rendered page then asks for (charts drawn in place) comes after it.
 */
const READ = (ready: string) => {
  const w = window as unknown as { __firstScreen: { longTasks: Array<{ start: number; duration: number }>; lcp: number } };
  const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? Number.NaN;
  // /intro has no data to wait for: its first render is its first contentful paint.
  const readyAt = ready ? (performance.getEntriesByName(`ready:${ready}`)[0]?.startTime ?? Number.NaN) : fcp;
  const scripts = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter(
    (e) => /\.m?js(\?|$)/.test(e.name) && e.startTime <= readyAt,
  );
  const jsBytes = scripts.reduce((sum, e) => sum + e.encodedBodySize, 0);
  // TBT as Lighthouse counts it: the part of each long task beyond 50 ms, from the first contentful paint on.
  const tbt = w.__firstScreen.longTasks.filter((t) => t.start + t.duration > fcp).reduce((sum, t) => sum + Math.max(0, t.duration - 50), 0);
  return { jsBytes, fcp, lcp: w.__firstScreen.lcp || fcp, tbt };
};

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Lighthouse's mobile (default) and desktop presets, each run `runs` times on /intro and the signed-in dashboard. */
async function lighthouseRows(url: string, cookie: string, runs: number): Promise<Row[]> {
  const rows: Row[] = [];
  const presets = [
    { name: 'Lighthouse mobile', config: undefined, formFactor: 'mobile' },
    { name: 'Lighthouse desktop', config: desktopConfig, formFactor: 'desktop' },
  ] as const;
  for (const preset of presets) {
    for (const screen of ['/intro', 'dashboard'] as const) {
      const results: LighthouseFigures[] = [];
      for (let i = 0; i < runs; i++) {
        results.push(
          await lighthouseWithRetries(`${url}${screen === 'dashboard' ? '/' : '/intro'}`, screen === 'dashboard' ? cookie : undefined, preset.config),
        );
      }
      const label = `${screen === 'dashboard' ? 'dashboard (signed in)' : '/intro'}, ${preset.name}`;
      const t = preset.formFactor === 'mobile' ? DEVICES[1]!.targets : DEVICES[0]!.targets;
      rows.push(
        summarize(
          SUITE,
          `${label}: performance score`,
          'lighthouse',
          results.map((r) => r.score),
          'score',
          undefined,
          { limit: 0.9, on: 'p50', atLeast: true },
        ),
        summarize(
          SUITE,
          `${label}: first contentful paint`,
          'lighthouse',
          results.map((r) => r.fcp),
          'ms',
          undefined,
          { limit: t.fcp, on: 'p50' },
        ),
        summarize(
          SUITE,
          `${label}: largest contentful paint`,
          'lighthouse',
          results.map((r) => r.lcp),
          'ms',
          undefined,
          { limit: t.lcp, on: 'p50' },
        ),
        summarize(
          SUITE,
          `${label}: total blocking time`,
          'lighthouse',
          results.map((r) => r.tbt),
          'ms',
          undefined,
          { limit: t.tbt, on: 'p50' },
        ),
        summarize(
          SUITE,
          `${label}: cumulative layout shift`,
          'lighthouse',
          results.map((r) => r.cls),
          'CLS',
          undefined,
          { limit: 0.1, on: 'p50' },
        ),
      );
    }
  }
  return rows;
}

interface LighthouseFigures {
  score: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
}

/**
 * Lighthouse sometimes fails to record its trace (NO_NAVSTART, "Please run Lighthouse again"): a run that fails so is
 * run again, up to three times, rather than losing the whole bench.
 */
async function lighthouseWithRetries(url: string, cookie: string | undefined, config: typeof desktopConfig | undefined): Promise<LighthouseFigures> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await lighthouseOnce(url, cookie, config);
    } catch (error) {
      if (attempt >= 3) throw error;
      console.error(`${(error as Error).message}; running it again`);
    }
  }
}

/** One Lighthouse run in a Chromium of its own (a fresh profile), as its CLI does with chrome-launcher. */
async function lighthouseOnce(url: string, cookie: string | undefined, config: typeof desktopConfig | undefined): Promise<LighthouseFigures> {
  const profile = tempDir('lighthouse-profile');
  const chrome = spawn(
    CHROMIUM,
    [
      '--headless=new',
      '--remote-debugging-port=0',
      `--user-data-dir=${profile}`,
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      'about:blank',
    ],
    { stdio: ['ignore', 'ignore', 'pipe'], detached: true },
  );
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let err = '';
      chrome.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        const match = /DevTools listening on ws:\/\/[^:]+:(\d+)\//.exec(err);
        if (match) resolve(Number(match[1]));
      });
      chrome.once('exit', (code) => reject(new Error(`Chromium exited (${code}) before listening: ${err.slice(-500)}`)));
    });
    const result = await lighthouse(
      url,
      {
        port,
        hostname: '127.0.0.1',
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance'],
        ...(cookie ? { extraHeaders: { cookie } } : {}),
      },
      config,
    );
    const lhr = result?.lhr;
    if (!lhr) throw new Error(`Lighthouse returned no result for ${url}`);
    // BENCH_LIGHTHOUSE_DIR keeps each run's full report (which scripts ran long, what blocked the paint).
    const keep = process.env.BENCH_LIGHTHOUSE_DIR;
    if (keep) {
      fs.mkdirSync(keep, { recursive: true });
      const name = `${new URL(url).pathname === '/' ? 'dashboard' : 'intro'}-${config ? 'desktop' : 'mobile'}-${Date.now()}.json`;
      fs.writeFileSync(path.join(keep, name), JSON.stringify(lhr));
    }
    if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    const audit = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
    return {
      score: lhr.categories.performance?.score ?? Number.NaN,
      fcp: audit('first-contentful-paint'),
      lcp: audit('largest-contentful-paint'),
      tbt: audit('total-blocking-time'),
      cls: audit('cumulative-layout-shift'),
    };
  } finally {
    // Chromium's helper processes share its process group: end them all, then remove the profile they wrote to.
    const exited = new Promise((resolve) => (chrome.exitCode === null && chrome.signalCode === null ? chrome.once('exit', resolve) : resolve(null)));
    try {
      if (chrome.pid) process.kill(-chrome.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
    await exited;
    fs.rmSync(path.resolve(profile), { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  }
}
