import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SEARCH_ENTRIES } from '../src/web/features/search/search-entries';
import { loggedEmails, uniqueEmail } from '../tests/support/app';
import { ForgotPasswordPage, IntroPage, LoginPage, RegisterPage, ResetPasswordPage } from './pages/auth-pages';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { seriousA11yViolations } from './support/a11y';
import { createAccount, PASSWORD, signedInAccount } from './support/accounts';
import { eventually, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * The foundation as a trader meets it in Chromium, on the embedded database without SMTP (emails go to the
 * server log): intro, accounts, the app shell, password reset, not-found and accessibility. One server and one
 * browser for the file; every scenario gets a fresh browser profile.
 */

// Sign-in and reset are rate-limited per address, and every page here connects from 127.0.0.1.
const suite = useE2ESuite(() => ({ backend: 'pglite', env: { AUTH_RATE_LIMIT: '1000' } }));
const scenario = suite.scenario.bind(suite);

/**
 * Where the shell scenarios start: a page of the foundation whose content stays put. The dashboard is built by
 * another feature and collapses the sidebar at load, the Trade Log does too.
 */
const SHELL_PAGE = '/tutorials';

const storageItem = (page: Page, key: string) => page.evaluate((k) => window.localStorage.getItem(k), key);

const textOf = async (page: Page, testId: string) => (await page.getByTestId(testId).innerText()).trim();

/** Presses Tab `presses` times and counts the stops that landed inside the sidebar. */
async function tabStopsInSidebar(page: Page, presses: number): Promise<number> {
  let inside = 0;
  for (let i = 0; i < presses; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => Boolean(document.activeElement?.closest('[data-testid="sidebar"]')))) inside += 1;
  }
  return inside;
}

/** The newest email the server logged (no SMTP) for `to` whose subject matches, and the link in it. */
async function loggedLink(to: string, subject: RegExp): Promise<string> {
  let link: string | undefined;
  await eventually(() => {
    const email = loggedEmails(suite.e2e.app.logs, to)
      .filter((m) => subject.test(m.subject))
      .at(-1);
    link = email ? /https?:\/\/\S+/.exec(email.text)?.[0] : undefined;
    return link;
  }).toBeDefined();
  return link!;
}

describe('intro and protected routes', () => {
  it('sends /intro drawn, so it shows before any code runs, and the app takes it over without a loader', async () => {
    // No JavaScript at all: the page is there, with its title, heading and working links.
    const bare = await scenario({ javaScriptEnabled: false });
    await bare.page.goto('/intro');
    expect(await bare.page.title()).toBe('Edgebook · Self-hosted trading journal');
    await bare.page.getByRole('heading', { level: 1, name: 'Find your edge in your own numbers' }).waitFor();
    await bare.page.getByTestId('intro-get-started').click();
    expect(new URL(bare.page.url()).pathname).toBe('/register');

    // With the code, in the light theme: never a loading screen in between, and the page ends up light.
    const { page } = await scenario({ colorScheme: 'light' });
    await page.goto('/intro');
    await page.evaluate(() => window.localStorage.setItem('theme', 'light'));
    await page.addInitScript(() => {
      const w = window as unknown as { loaderSeen: boolean };
      w.loaderSeen = false;
      new MutationObserver(() => {
        if (document.querySelector('[data-testid="auth-loading"]')) w.loaderSeen = true;
      }).observe(document, { childList: true, subtree: true });
    });
    await page.reload();
    // The theme is light from the first paint on (the boot module sets it), not only once the app runs.
    expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('light');
    await new IntroPage(page).getStarted.waitFor();
    await page.locator('html:not([data-prerendered])').waitFor({ state: 'attached' });
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => (window as unknown as { loaderSeen: boolean }).loaderSeen)).toBe(false);
    expect(await page.evaluate(() => document.documentElement.dataset.mantineColorScheme)).toBe('light');
    // The app's page, not the drawn one: its links move within the app.
    await new IntroPage(page).navLink('Sign In').click();
    await waitForPath(page, '/login');
  });

  it('sends a first-time visitor from / to /intro, whose links lead to sign-in, sign-up and its own sections', async () => {
    const { page } = await scenario();
    // React's development build greets the console; the app a trader gets must be the production build.
    const console: string[] = [];
    page.on('console', (m) => console.push(m.text()));
    await page.goto('/');
    await waitForPath(page, '/intro');
    const intro = new IntroPage(page);
    await intro.getStarted.waitFor();
    expect(await storageItem(page, 'has_seen_intro')).toBe('true');

    // Features and Home scroll within the page and move the focus there (keyboard users land on the section).
    await intro.navLink('Features').click();
    await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe('features');
    await intro.navLink('Home').click();
    await eventually(() => page.evaluate(() => document.activeElement?.id)).toBe('top');
    expect(new URL(page.url()).pathname).toBe('/intro');

    await intro.navLink('Sign In').click();
    await waitForPath(page, '/login');
    await new LoginPage(page).submit.waitFor();
    await page.goBack();
    await waitForPath(page, '/intro');

    await intro.navLink('Sign Up').click();
    await waitForPath(page, '/register');
    await page.goBack();
    await waitForPath(page, '/intro');

    await intro.getStarted.click();
    await waitForPath(page, '/register');
    await new RegisterPage(page).submit.waitFor();
    expect(
      console.filter((line) => /React DevTools/.test(line)),
      'the web app was built in development mode',
    ).toEqual([]);
  });

  it('sends a visitor who has seen the intro to /login, and signing in returns to the page they asked for', async () => {
    const account = await createAccount(suite.e2e.app);
    const { page } = await scenario();
    await new IntroPage(page).goto();

    await page.goto('/reflect?range=week#summary');
    await waitForPath(page, '/login');
    await new LoginPage(page).signIn(account.email, account.password);

    await waitForPath(page, '/reflect');
    const url = new URL(page.url());
    expect(url.search + url.hash).toBe('?range=week#summary');
    await new Shell(page).waitUntilReady();
  });

  it('keeps the asked-for page through the intro for a first-time visitor', async () => {
    const account = await createAccount(suite.e2e.app);
    const { page } = await scenario();
    await page.goto('/reflect-ai');
    await waitForPath(page, '/intro');
    await new IntroPage(page).navLink('Sign In').click();
    await waitForPath(page, '/login');
    await new LoginPage(page).signIn(account.email, account.password);
    await waitForPath(page, '/reflect-ai');
  });

  it('shows the not-found page for an unknown path, with a link back to the dashboard', async () => {
    const { page } = await scenario();
    await page.goto('/no-such-page');
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    const back = page.getByRole('link', { name: 'Return to Dashboard' });
    expect(await back.getAttribute('href')).toBe('/');
    await back.click();
    // Signed out and new here: the dashboard sends the visitor on to the intro.
    await waitForPath(page, '/intro');
  });
});

describe('accounts without SMTP', () => {
  it('registers after the form rules pass, lands on the dashboard shell, and refuses the same email twice', async () => {
    const email = uniqueEmail('register');
    const { page } = await scenario();
    const register = new RegisterPage(page);
    await register.goto();

    await register.register(email, 'long-password-1', 'long-password-2');
    expect((await register.error.innerText()).trim()).toBe('Passwords do not match');
    await register.register(email, 'seven77', 'seven77');
    expect((await register.error.innerText()).trim()).toBe('Password must be at least 8 characters long');

    // Without SMTP the account is confirmed at once and the trader goes straight in.
    await register.register(email, PASSWORD);
    await waitForPath(page, '/');
    const shell = new Shell(page);
    await shell.waitUntilReady();
    await shell.nav('dashboard').waitFor();
    expect(await shell.nav('dashboard').getAttribute('aria-current')).toBe('page');

    // Signed in, the auth pages send the trader home.
    await page.goto('/login');
    await waitForPath(page, '/');
    await page.goto('/register');
    await waitForPath(page, '/');
    await shell.waitUntilReady();

    const other = await scenario();
    const again = new RegisterPage(other.page);
    await again.goto();
    await again.register(email, PASSWORD);
    await again.error.waitFor();
    // The page shows the server's message when it has one, else the spec's generic text.
    expect((await again.error.innerText()).trim()).toBe('User already exists. Use another email.');
    expect(new URL(other.page.url()).pathname).toBe('/register');
  });

  it("shows the server's message for a wrong password and signs in with the right one", async () => {
    const account = await createAccount(suite.e2e.app);
    const { page } = await scenario();
    const login = new LoginPage(page);
    await login.goto();
    expect(await login.forgotPassword.getAttribute('href')).toBe('/forgot-password');
    expect(await login.signUpLink.getAttribute('href')).toBe('/register');
    expect(await login.supportContact.getAttribute('href')).toMatch(/^mailto:/);

    await login.signIn(account.email, 'wrong-password-1');
    await login.error.waitFor();
    expect((await login.error.innerText()).trim()).toBe('Invalid email or password');
    expect(new URL(page.url()).pathname).toBe('/login');

    await login.signIn(account.email, account.password);
    await waitForPath(page, '/');
    await new Shell(page).waitUntilReady();
  });

  it('resets a forgotten password through the logged link: the new password works, the old and the link do not', async () => {
    const account = await createAccount(suite.e2e.app, 'reset');
    const { page } = await scenario();
    const forgot = new ForgotPasswordPage(page);
    await forgot.goto();
    await forgot.requestLink(account.email);
    await forgot.success.waitFor();
    expect((await forgot.success.innerText()).trim()).toBe('Password reset link sent! Check your email inbox.');

    const link = await loggedLink(account.email, /reset/i);
    await page.goto(link);
    await waitForPath(page, '/reset-password');
    expect(new URL(page.url()).searchParams.get('token')).toBeTruthy();

    const reset = new ResetPasswordPage(page);
    await reset.setPassword('brand-new-password-1', 'brand-new-password-2');
    expect((await reset.error.innerText()).trim()).toBe('Passwords do not match');

    const submitted = Date.now();
    await reset.setPassword('brand-new-password-1');
    await reset.success.waitFor();
    expect((await reset.success.innerText()).trim()).toBe('Password successfully reset! Redirecting to login...');
    await waitForPath(page, '/login', 10_000);
    // The redirect waits 2 s after the reset.
    expect(Date.now() - submitted).toBeGreaterThanOrEqual(1900);

    const login = new LoginPage(page);
    await login.signIn(account.email, account.password);
    await login.error.waitFor();
    expect((await login.error.innerText()).trim()).toBe('Invalid email or password');
    await login.signIn(account.email, 'brand-new-password-1');
    await waitForPath(page, '/');
    await new Shell(page).waitUntilReady();

    // A used link cannot set the password again.
    await page.goto(link);
    await reset.invalidLink.waitFor();
    await page.getByRole('heading', { name: 'Invalid Reset Link' }).waitFor();
    await reset.requestNewLink.click();
    await waitForPath(page, '/forgot-password');
  });

  it('shows the Invalid Reset Link screen for a reset page without a token', async () => {
    const { page } = await scenario();
    await page.goto('/reset-password');
    const reset = new ResetPasswordPage(page);
    await reset.invalidLink.waitFor();
    expect((await reset.requestNewLink.innerText()).trim()).toBe('Request New Reset Link');
  });

  it('checks a made-up token on load: Invalid Reset Link at once, never the password form', async () => {
    const { page } = await scenario();
    let formShown = false;
    await page.exposeFunction('formShown', () => {
      formShown = true;
    });
    await page.addInitScript(() => {
      new MutationObserver(() => {
        if (document.querySelector('input[type="password"]')) (window as unknown as { formShown: () => void }).formShown();
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto('/reset-password?token=not-a-real-token');
    const reset = new ResetPasswordPage(page);
    await reset.invalidLink.waitFor();
    expect(formShown).toBe(false);
  });
});

describe('the app shell', () => {
  it("opens the search palette with Ctrl+K and filters its entries (the spec's 18 and the reports) by title, ignoring case", async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    const palette = new SearchPalette(page);

    await palette.openWithShortcut();
    expect(await palette.input.getAttribute('placeholder')).toBe('Search for anything...');
    await palette.message('Start typing to search...').waitFor();
    expect(await palette.entries.count()).toBe(0);

    await palette.search('TRADE');
    await palette.entry('trade-log').waitFor();
    expect((await palette.shownIds()).sort()).toEqual(['add-trade', 'ai-trade-analysis', 'reflect', 'trade-log']);

    await palette.search('xyzzy');
    await palette.message('No results found.').waitFor();
    expect(await palette.entries.count()).toBe(0);

    // The palette shows only matches; every title has a vowel, so the vowels together reach the whole list.
    const reachable = new Set<string>();
    for (const vowel of ['a', 'e', 'i', 'o', 'u']) {
      await palette.search(vowel.toUpperCase());
      await palette.entries.first().waitFor();
      for (const id of await palette.shownIds()) reachable.add(id);
    }
    expect(reachable.size).toBe(SEARCH_ENTRIES.length);
    expect(SEARCH_ENTRIES.length).toBe(18 + 21);
    expect([...reachable].sort()).toEqual(SEARCH_ENTRIES.map((e) => e.id).sort());

    await palette.close();
    expect(new URL(page.url()).pathname).toBe(SHELL_PAGE);

    // The top bar's hint opens it too; choosing a page goes there and closes the palette.
    await shell.searchHint.click();
    await palette.input.waitFor();
    await palette.search('reflecta');
    await palette.entry('reflect-ai').click();
    await waitForPath(page, '/reflect-ai');
    await palette.input.waitFor({ state: 'hidden' });

    // And from the keyboard: arrow down to the entry, Enter.
    await palette.openWithShortcut();
    await palette.search('noteBOOK');
    await palette.entry('notebook').waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await waitForPath(page, '/notebook');
    await palette.input.waitFor({ state: 'hidden' });

    // Sign Out asks for the same confirmation as the sidebar's Logout.
    await palette.openWithShortcut();
    await palette.search('sign');
    await palette.entry('sign-out').click();
    await shell.logoutDialog.waitFor();
    await shell.logoutCancel.click();
    await shell.logoutDialog.waitFor({ state: 'hidden' });
    expect(new URL(page.url()).pathname).toBe('/notebook');
  });

  it('is dark by default, even when the system prefers light, and remembers the light theme across a reload', async () => {
    const { context, page } = await scenario({ colorScheme: 'light' });
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    expect(await shell.colorScheme()).toBe('dark');
    expect(await shell.themeToggleLabel()).toBe('Light Mode');

    await shell.themeToggle.click();
    await eventually(() => shell.colorScheme()).toBe('light');
    expect(await shell.themeToggleLabel()).toBe('Dark Mode');
    expect(await storageItem(page, 'theme')).toBe('light');

    await page.reload();
    await shell.waitUntilReady();
    expect(await shell.colorScheme()).toBe('light');
    expect(await shell.themeToggleLabel()).toBe('Dark Mode');

    await shell.themeToggle.click();
    await eventually(() => shell.colorScheme()).toBe('dark');
    expect(await shell.themeToggleLabel()).toBe('Light Mode');
  });

  it('collapses the sidebar with Ctrl+[ and remembers it across a reload', async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    expect(await shell.collapsed()).toBe('false');
    expect(await shell.sidebarToggle.getAttribute('aria-label')).toBe('Collapse sidebar');

    await shell.pressSidebarShortcut();
    await eventually(() => shell.collapsed()).toBe('true');
    expect(await shell.sidebarToggle.getAttribute('aria-label')).toBe('Expand sidebar');
    expect(await storageItem(page, 'sidebar-collapsed')).toBe('true');

    await page.reload();
    await shell.waitUntilReady();
    expect(await shell.collapsed()).toBe('true');
    // Collapsed, the entries keep their names for screen readers and keyboard users.
    await shell.sidebar.getByRole('link', { name: 'Trade Log' }).waitFor();

    await shell.pressSidebarShortcut();
    await eventually(() => shell.collapsed()).toBe('false');
    expect(await storageItem(page, 'sidebar-collapsed')).toBe('false');

    await shell.sidebarToggle.click();
    await eventually(() => shell.collapsed()).toBe('true');

    // The Trade Log page collapses it.
    await shell.sidebarToggle.click();
    await eventually(() => shell.collapsed()).toBe('false');
    await shell.nav('trade-log').click();
    await waitForPath(page, '/trade-log');
    await eventually(() => shell.collapsed()).toBe('true');
  });

  it('turns the sidebar into a drawer under 768 px', async () => {
    const { context, page } = await scenario({ width: 375, height: 740 });
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    await shell.mobileNavToggle.waitFor();
    expect(await shell.mobileNavToggle.getAttribute('aria-label')).toBe('Open navigation');
    expect(await shell.sidebarToggle.isVisible()).toBe(false);
    await eventually(() => shell.sidebarOnScreen()).toBe(false);

    // The desktop shortcut does not apply to the drawer.
    await shell.pressSidebarShortcut();
    expect(await shell.collapsed()).toBe('false');

    // Closed, the drawer's links are out of the tab order: keyboard focus never disappears off-screen.
    expect(await tabStopsInSidebar(page, 10)).toBe(0);

    await shell.mobileNavToggle.click();
    await eventually(() => shell.sidebarOnScreen()).toBe(true);
    expect(await shell.mobileNavToggle.getAttribute('aria-label')).toBe('Close navigation');
    expect(await tabStopsInSidebar(page, 10)).toBeGreaterThan(0);
    await shell.mobileNavToggle.focus();

    // Choosing a page closes the drawer.
    await shell.nav('reflect').click();
    await waitForPath(page, '/reflect');
    await eventually(() => shell.sidebarOnScreen()).toBe(false);
    expect(await shell.mobileNavToggle.getAttribute('aria-label')).toBe('Open navigation');

    // Escape closes the drawer too.
    await shell.mobileNavToggle.click();
    await eventually(() => shell.sidebarOnScreen()).toBe(true);
    await shell.nav('reflect').focus();
    await page.keyboard.press('Escape');
    await eventually(() => shell.sidebarOnScreen()).toBe(false);
    expect(await shell.mobileNavToggle.getAttribute('aria-label')).toBe('Open navigation');

    // The top bar fits the narrow screen: nothing scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });

  it("shows the date as EEE dd MMM and the time as HH:mm on the trader's clock, refreshed every minute", async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    // 23:59:30 on Friday 7 March in New York, the new trader's zone (the browser's own clock runs there too).
    const start = new Date('2025-03-08T04:59:30Z');
    await page.clock.install({ time: start });
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    await page.getByTestId('top-bar-time').waitFor();
    expect(await textOf(page, 'top-bar-date')).toBe('Fri 07 Mar');
    expect(await textOf(page, 'top-bar-time')).toBe('23:59');

    await page.clock.runFor(60_000);
    await eventually(() => textOf(page, 'top-bar-time')).toBe('00:00');
    expect(await textOf(page, 'top-bar-date')).toBe('Sat 08 Mar');
  });

  it('shows the trading-mode overlay for about a second when entering and when leaving trading mode', async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);

    for (const message of ['Entering Trading Mode', 'Exiting Trading Mode']) {
      const clicked = Date.now();
      await shell.tradingModeToggle.click();
      await shell.tradingModeOverlay.getByText(message).waitFor();
      expect(await shell.tradingModeToggle.getAttribute('aria-pressed')).toBe(message.startsWith('Entering') ? 'true' : 'false');
      await shell.tradingModeOverlay.waitFor({ state: 'detached', timeout: 5_000 });
      // Its 1 s timer starts after the click, so it cannot be gone sooner (the upper bound is the wait above).
      expect(Date.now() - clicked).toBeGreaterThanOrEqual(950);
    }
  });

  it('marks the body in edit mode and lets the trader dismiss its overlay once or for good', async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    const bodyHasEditMode = () => page.evaluate(() => document.body.classList.contains('edit-mode'));

    await shell.editModeToggle.click();
    await shell.editModeOverlay.waitFor();
    expect(await bodyHasEditMode()).toBe(true);
    await shell.editOverlayDismiss.click();
    await shell.editModeOverlay.waitFor({ state: 'detached' });
    expect(await bodyHasEditMode()).toBe(true);

    await shell.editModeToggle.click();
    expect(await bodyHasEditMode()).toBe(false);
    await shell.editModeToggle.click();
    await shell.editModeOverlay.waitFor();
    await shell.editOverlayDismissForever.click();
    await shell.editModeOverlay.waitFor({ state: 'detached' });
    expect(await storageItem(page, 'edit-overlay-dismissed')).toBe('true');

    await page.reload();
    await shell.waitUntilReady();
    expect(await bodyHasEditMode()).toBe(false);
    await shell.editModeToggle.click();
    await eventually(bodyHasEditMode).toBe(true);
    await page.waitForTimeout(300);
    expect(await shell.editModeOverlay.count()).toBe(0);
  });

  it('shows the sidebar links: the pages with Notebook and Daily Journal, community, social, tutorials in a new tab, and the version', async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    const community = page.getByTestId('community-link');
    await community.waitFor();
    // The spec's four pages with Reports after the Trade Log, then the notes pages.
    const pages = await shell.sidebar
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link')
      .evaluateAll((links) => links.map((a) => [a.textContent?.trim(), a.getAttribute('href')]));
    expect(pages).toEqual([
      ['Dashboard', '/'],
      ['Trade Log', '/trade-log'],
      ['Reports', '/reports'],
      ['Playbooks', '/playbooks'],
      ['Reflect', '/reflect'],
      ['ReflectAI', '/reflect-ai'],
      ['Notebook', '/notebook'],
      ['Daily Journal', '/journal'],
    ]);
    await shell.nav('journal').click();
    await waitForPath(page, '/journal');
    await eventually(() => shell.nav('journal').getAttribute('aria-current')).toBe('page');
    expect(await shell.nav('notebook').getAttribute('aria-current')).toBeNull();
    expect(await community.getAttribute('href')).toBe('https://discord.com/');
    expect(await page.getByTestId('social-link').getAttribute('href')).toBe('https://x.com/');
    expect(await textOf(page, 'app-version')).toBe('Version 1.0.2');

    const [tab] = await Promise.all([context.waitForEvent('page'), page.getByTestId('tutorials-link').click()]);
    await waitForPath(tab, '/tutorials');
    await new Shell(tab).waitUntilReady();
  });

  it('logs out only after the confirmation, lands on /intro and keeps only the allowed local keys', async () => {
    const { context, page } = await scenario();
    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    await shell.themeToggle.click();
    await shell.pressSidebarShortcut();
    await eventually(() => shell.collapsed()).toBe('true');
    await page.evaluate(() => {
      localStorage.setItem('has_seen_intro', 'true');
      localStorage.setItem('draft-trade', '{"symbol":"ES"}');
      localStorage.setItem('cached-trades', '[]');
      sessionStorage.setItem('last-filter', 'wins');
    });

    await shell.openLogoutDialog();
    expect(await shell.logoutDialog.innerText()).toContain("Are you sure you want to logout? You'll need to sign in again to access your dashboard.");
    await shell.logoutCancel.click();
    await shell.logoutDialog.waitFor({ state: 'hidden' });
    await shell.page.reload();
    await shell.waitUntilReady();
    expect(new URL(page.url()).pathname).toBe(SHELL_PAGE);

    await shell.openLogoutDialog();
    // Signing out sends no request that the ended session then refuses (seven 401s).
    const refused: string[] = [];
    page.on('response', (r) => {
      if (r.status() === 401) refused.push(`${r.request().method()} ${new URL(r.url()).pathname}`);
    });
    await shell.logoutConfirm.click();
    await waitForPath(page, '/intro');
    await page.waitForLoadState('networkidle');
    expect(refused).toEqual([]);

    const storage = await page.evaluate(() => ({
      local: Object.fromEntries(Object.keys(localStorage).map((k) => [k, localStorage.getItem(k)])),
      session: sessionStorage.length,
    }));
    expect(storage.local).toEqual({ theme: 'light', 'sidebar-collapsed': 'true', has_seen_intro: 'true' });
    expect(storage.session).toBe(0);

    // The session is gone on the server too: protected routes now send the visitor to /login.
    const session = await page.request.get('/api/auth/get-session');
    expect(await session.json()).toBeNull();
    await page.goto('/trade-log');
    await waitForPath(page, '/login');
  });
});

describe.each(['dark', 'light'] as const)('accessibility in the %s theme', (theme) => {
  // The public pages (/intro, /login, /register, /forgot-password, /reset-password) are checked in both themes in
  // public-pages.test.ts.
  it('has no serious or critical axe violations in the shell, its logout dialog and with the sidebar collapsed', async () => {
    const { context, page } = await scenario();
    // Only on the app's pages: axe opens an about:blank page of its own, which may not touch storage.
    await useAppTheme(context, theme);
    const failures: string[] = [];
    const check = async (where: string) => {
      expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(theme);
      failures.push(...(await seriousA11yViolations(page)).map((v) => `${where}: ${v}`));
    };

    await signedInAccount(suite.e2e.app, context);
    const shell = new Shell(page);
    await shell.goto(SHELL_PAGE);
    await check('shell');
    await shell.openLogoutDialog();
    await check('logout dialog');
    await shell.logoutCancel.click();
    await shell.logoutDialog.waitFor({ state: 'hidden' });
    await shell.pressSidebarShortcut();
    await eventually(() => shell.collapsed()).toBe('true');
    await check('shell, sidebar collapsed');

    expect(failures, failures.join('\n')).toEqual([]);
  });
});
