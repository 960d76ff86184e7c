import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { collectPageErrors, startE2E, type E2E } from './browser';

export interface Scenario {
  context: BrowserContext;
  page: Page;
  /** Uncaught errors and CSP violations of every page the scenario opened (new tabs included). */
  errors(): string[];
  close(): Promise<void>;
}

/**
 * A fresh browser profile with its first page, watching every page it opens for uncaught errors and CSP
 * violations (a trader would see either as a broken page).
 */
export async function openScenario(e2e: E2E, options: Parameters<E2E['newContext']>[0] = {}): Promise<Scenario> {
  const context = await e2e.newContext(options);
  // CI machines here have 2 cores shared with the server and the other suites: give slow page loads room.
  context.setDefaultTimeout(30_000);
  const collected: string[][] = [];
  context.on('page', (page) => collected.push(collectPageErrors(page)));
  const page = await context.newPage();
  return {
    context,
    page,
    errors: () => collected.flat(),
    close: () => context.close(),
  };
}

/**
 * Resolves once the page's finite animations (page fades, transitions) are over, so contrast checks see the final
 * colours. Endless ones (loaders, skeletons) are left running.
 */
export async function waitForAnimations(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/** expect.poll with room for a busy machine (its default gives up after 1 s). */
export function eventually<T>(read: () => T | Promise<T>, message?: string) {
  return expect.poll(read, { timeout: 15_000, interval: 100, message });
}

/**
 * One real server and one Chromium for a test file, a fresh profile per scenario, and after each test the check that
 * no page a scenario opened threw or hit the Content-Security-Policy.
 */
export function useE2ESuite(options: () => Parameters<typeof startE2E>[0] | Promise<Parameters<typeof startE2E>[0]> = () => ({})) {
  let current: E2E | undefined;
  let open: Scenario[] = [];

  beforeAll(async () => {
    current = await startE2E(await options());
  });
  afterAll(async () => {
    await current?.close();
  });
  let logsSeen = 0;
  afterEach(async () => {
    const scenarios = open;
    open = [];
    const errors = scenarios.flatMap((s) => s.errors());
    await Promise.all(scenarios.map((s) => s.close()));
    expect(errors, 'uncaught page errors or CSP violations').toEqual([]);
    // Nor may the server have logged an error (an unhandled exception is a 500 the trader would see).
    const logs = current?.app.logs ?? [];
    const serverErrors = logs.slice(logsSeen).filter((line) => Number(line.level) >= 50);
    logsSeen = logs.length;
    expect(
      serverErrors.map((line) => JSON.stringify(line).slice(0, 2000)),
      'server errors during the test',
    ).toEqual([]);
  });

  return {
    get e2e(): E2E {
      if (!current) throw new Error('the E2E suite has not started (use it inside tests or hooks)');
      return current;
    },
    async scenario(contextOptions?: Parameters<E2E['newContext']>[0]): Promise<Scenario> {
      const s = await openScenario(this.e2e, contextOptions);
      open.push(s);
      return s;
    },
  };
}

export async function waitForPath(page: Page, pathname: string, timeout?: number) {
  await page.waitForURL((url) => url.pathname === pathname, { timeout });
}

/**
 * Where a screen check runs in both themes and at both widths (1440 px and 390 px, dark and light): as a
 * phone in the light theme and a desktop in the dark one. The theme changes colours, not what these checks read;
 * the axe checks, whose contrast rules depend on both, run every pairing.
 */
export const SCREEN_PAIRS = [
  { name: 'phone', width: 390, height: 844, theme: 'light' },
  { name: 'desktop', width: 1440, height: 900, theme: 'dark' },
] as const;

/** The app's theme for every page the profile opens (axe's own about:blank page may not touch storage). */
export async function useAppTheme(context: BrowserContext, theme: 'dark' | 'light'): Promise<void> {
  await context.addInitScript((value) => {
    if (window.location.protocol.startsWith('http')) window.localStorage.setItem('theme', value);
  }, theme);
}
