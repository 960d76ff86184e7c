import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startTestApp, type Backend, type TestApp } from '../../tests/support/app';

/** Debian's Chromium, with the flags that keep it off a network it cannot reach. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
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
      // A profile's pages of the app share one renderer process (see ContextPool).
      '--process-per-site',
    ],
  });
}

export interface E2E {
  app: TestApp;
  browser: Browser;
  /**
   * A browser profile (cookies, storage) as fresh as a new one, at desktop size unless told otherwise. Its close()
   * gives it back to the file's pool (see ContextPool).
   */
  newContext(options?: ContextOptions): Promise<BrowserContext>;
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

export interface ContextOptions {
  width?: number;
  height?: number;
  colorScheme?: 'dark' | 'light';
  javaScriptEnabled?: boolean;
  /**
   * The browser's own time zone. New York unless told otherwise, like a new trader's clock: a trader's first
   * sign-in takes the browser's zone as their own, and the scenarios count days in New York.
   */
  timezoneId?: string;
}

export const BROWSER_TIME_ZONE = 'America/New_York';

/**
 * One real server (in this process, on a loopback port) and one Chromium for a test file. The server uses the
 * PostgreSQL cluster when it is up: its queries then run beside this process rather than in it (PGlite shares the
 * process with the server and Playwright's client), about a tenth of the suite's time on 2 cores. The files about the
 * embedded default (foundation, first screen, imports) ask for PGlite; the API tests run every query on both.
 */
export async function startE2E(options: { backend?: Backend; env?: Record<string, string> } = {}): Promise<E2E> {
  const app = await startTestApp({ ...options, backend: options.backend ?? (inject('pgAdminUrl') ? 'postgres' : 'pglite') });
  const browser = await launchBrowser();
  const pool = new ContextPool(browser, app.url);
  return {
    app,
    browser,
    newContext: (o) => pool.lease(o),
    async newPage(o) {
      return (await pool.lease(o)).newPage();
    },
    async close() {
      await pool.close();
      await browser.close();
      await app.close();
    },
  };
}

interface Pooled {
  context: BrowserContext;
  key: string;
  /** A page of the app's origin kept open, so the scenario's pages join its renderer process. */
  keeper: Page;
  busy: boolean;
  disposables: Array<{ dispose(): Promise<void> }>;
  /**
   * A scenario installed a fake clock (page.clock is the profile's): nothing takes it out again, and its Date stays in
   * every later page (a TZDate built on it read UTC), so the profile is closed rather than given back.
   */
  clockInstalled: boolean;
  listeners: Array<[string | symbol, (...args: never[]) => void]>;
  /** BrowserContext's own close, which the pool replaces with a release. */
  closeForGood: () => Promise<void>;
}

/**
 * Browser profiles reused from one scenario to the next. On a 2-core machine a new profile's first page costs
 * ~5 CPU-seconds of Chromium, most of it starting a renderer process; a page that joins the renderer of a page
 * already open on the app costs ~2.5. So each profile keeps one page open on the app's origin (a JSON endpoint, no
 * script) and, when a scenario closes it, is wiped rather than closed: its other pages closed, cookies, storage
 * (local, session, IndexedDB, caches, service workers), permissions, routes, init scripts and the scenario's
 * listeners removed. What it keeps is the HTTP cache of the hashed assets (the API sends no-store). Profiles
 * without JavaScript are not pooled.
 */
class ContextPool {
  private readonly all: Pooled[] = [];
  private readonly unpooled: BrowserContext[] = [];

  constructor(
    private readonly browser: Browser,
    private readonly url: string,
  ) {}

  async lease(o: ContextOptions = {}): Promise<BrowserContext> {
    const settings = {
      baseURL: this.url,
      viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
      colorScheme: o.colorScheme,
      javaScriptEnabled: o.javaScriptEnabled,
      timezoneId: o.timezoneId ?? BROWSER_TIME_ZONE,
    };
    if (o.javaScriptEnabled === false) {
      const context = await this.browser.newContext(settings);
      context.setDefaultTimeout(15_000);
      this.unpooled.push(context);
      return context;
    }
    const key = JSON.stringify([settings.viewport, settings.colorScheme ?? null, settings.timezoneId]);
    let entry = this.all.find((e) => e.key === key && !e.busy);
    if (!entry) entry = await this.create(settings, key);
    entry.busy = true;
    entry.context.setDefaultTimeout(15_000);
    return entry.context;
  }

  private async create(settings: Parameters<Browser['newContext']>[0], key: string): Promise<Pooled> {
    const context = await this.browser.newContext(settings);
    const keeper = await context.newPage();
    await keeper.goto('/api/health');
    const entry: Pooled = {
      context,
      key,
      keeper,
      busy: false,
      disposables: [],
      listeners: [],
      clockInstalled: false,
      closeForGood: context.close.bind(context),
    };
    const install = context.clock.install.bind(context.clock);
    context.clock.install = async (...args: Parameters<typeof install>) => {
      entry.clockInstalled = true;
      return install(...args);
    };
    const addInitScript = context.addInitScript.bind(context);
    context.addInitScript = (async (...args: Parameters<typeof addInitScript>) => {
      const disposable = await addInitScript(...args);
      entry.disposables.push(disposable);
      return disposable;
    }) as typeof context.addInitScript;
    const on = context.on.bind(context);
    context.on = ((event: string, listener: (...args: never[]) => void) => {
      entry.listeners.push([event, listener]);
      return on(event as 'page', listener as never);
    }) as typeof context.on;
    context.close = async () => this.release(entry);
    this.all.push(entry);
    return entry;
  }

  private async release(entry: Pooled): Promise<void> {
    if (!entry.busy) return;
    const { context, keeper } = entry;
    if (entry.clockInstalled) {
      this.all.splice(this.all.indexOf(entry), 1);
      await entry.closeForGood();
      return;
    }
    for (const [event, listener] of entry.listeners.splice(0)) context.off(event as 'page', listener as never);
    await Promise.all(
      context
        .pages()
        .filter((p) => p !== keeper)
        .map((p) => p.close().catch(() => undefined)),
    );
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await Promise.all(entry.disposables.splice(0).map((d) => d.dispose()));
    await context.clearCookies();
    await context.clearPermissions();
    const cdp = await context.newCDPSession(keeper);
    await cdp.send('Storage.clearDataForOrigin', { origin: new URL(this.url).origin, storageTypes: 'all' });
    await cdp.detach();
    entry.busy = false;
  }

  async close(): Promise<void> {
    const closes = [...this.all.map((e) => e.closeForGood()), ...this.unpooled.map((c) => c.close())];
    await Promise.all(closes.map((closing) => closing.catch(() => undefined)));
  }
}

/** Fails the test on any uncaught page error or CSP violation, which a trader would see as a broken page. */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) errors.push(`csp: ${m.text()}`);
  });
  return errors;
}
