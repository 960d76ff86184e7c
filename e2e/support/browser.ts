import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';
import { startTestApp, type Backend, type TestApp } from '../../tests/support/app';

/** Debian's Chromium, with the flags that keep it off a network it cannot reach (STACK-NOTES). */
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
    ],
  });
}

export interface E2E {
  app: TestApp;
  browser: Browser;
  /** A fresh browser profile (cookies, localStorage) at desktop size unless told otherwise. */
  newContext(options?: { width?: number; height?: number; colorScheme?: 'dark' | 'light'; javaScriptEnabled?: boolean }): Promise<BrowserContext>;
  newPage(options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

/**
 * One real server (in this process, on a loopback port) and one Chromium for a test file. The server uses the
 * PostgreSQL cluster when it is up: its queries then run beside this process rather than in it (PGlite shares the
 * process with the server and Playwright's client), about a tenth of the suite's time on 2 cores. The files about the
 * embedded default (foundation, first screen, imports) ask for PGlite; the API tests run every query on both.
 */
export async function startE2E(options: { backend?: Backend; env?: Record<string, string> } = {}): Promise<E2E> {
  const app = await startTestApp({ ...options, backend: options.backend ?? (inject('pgAdminUrl') ? 'postgres' : 'pglite') });
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  const newContext: E2E['newContext'] = async (o = {}) => {
    const context = await browser.newContext({
      baseURL: app.url,
      viewport: { width: o.width ?? 1280, height: o.height ?? 800 },
      colorScheme: o.colorScheme,
      javaScriptEnabled: o.javaScriptEnabled,
    });
    context.setDefaultTimeout(15_000);
    contexts.push(context);
    return context;
  };
  return {
    app,
    browser,
    newContext,
    async newPage(o) {
      return (await newContext(o)).newPage();
    },
    async close() {
      await Promise.all(contexts.map((c) => c.close().catch(() => undefined)));
      await browser.close();
      await app.close();
    },
  };
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
