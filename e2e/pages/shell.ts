import type { Locator, Page } from 'playwright-core';

/** The signed-in app shell: sidebar, top bar, logout confirmation, mode overlays. */
export class Shell {
  constructor(readonly page: Page) {}

  get sidebar() {
    return this.page.getByTestId('sidebar');
  }
  get sidebarToggle() {
    return this.page.getByTestId('sidebar-toggle');
  }
  get mobileNavToggle() {
    return this.page.getByTestId('mobile-nav-toggle');
  }
  get themeToggle() {
    return this.page.getByTestId('theme-toggle');
  }
  get logoutButton() {
    return this.page.getByTestId('logout-button');
  }
  get logoutDialog() {
    return this.page.getByRole('dialog', { name: 'Logout from Edgebook' });
  }
  get logoutConfirm() {
    return this.page.getByTestId('logout-confirm');
  }
  get logoutCancel() {
    return this.page.getByTestId('logout-cancel');
  }
  get searchHint() {
    return this.page.getByTestId('search-hint');
  }
  get date() {
    return this.page.getByTestId('top-bar-date');
  }
  get time() {
    return this.page.getByTestId('top-bar-time');
  }
  get tradingModeToggle() {
    return this.page.getByTestId('trading-mode-toggle');
  }
  get tradingModeOverlay() {
    return this.page.getByTestId('trading-mode-overlay');
  }
  get editModeToggle() {
    return this.page.getByTestId('edit-mode-toggle');
  }
  get editModeOverlay() {
    return this.page.getByTestId('edit-mode-overlay');
  }
  get editOverlayDismiss() {
    return this.page.getByTestId('edit-overlay-dismiss');
  }
  get editOverlayDismissForever() {
    return this.page.getByTestId('edit-overlay-dismiss-forever');
  }

  nav(item: 'dashboard' | 'trade-log' | 'reflect' | 'reflect-ai' | 'notebook' | 'journal'): Locator {
    return this.page.getByTestId(`nav-${item}`);
  }

  /** Opens `path` and waits for the shell around it (the pages inside are built by other features). */
  async goto(path = '/') {
    await this.page.goto(path);
    await this.waitUntilReady();
  }

  async waitUntilReady() {
    await this.sidebar.waitFor({ state: 'attached' });
    await this.themeToggle.waitFor({ state: 'attached' });
  }

  async collapsed(): Promise<string | null> {
    return this.sidebar.getAttribute('data-collapsed');
  }

  async pressSidebarShortcut() {
    await this.page.keyboard.press('Control+BracketLeft');
  }

  async colorScheme(): Promise<string | null> {
    return this.page.locator('html').getAttribute('data-mantine-color-scheme');
  }

  /** The accessible name of the theme toggle: 'Light Mode' when dark, 'Dark Mode' when light. */
  async themeToggleLabel(): Promise<string> {
    return (await this.themeToggle.innerText()).trim();
  }

  /** Whether the sidebar lies inside the viewport (on mobile the closed drawer is moved off-screen). */
  async sidebarOnScreen(): Promise<boolean> {
    return this.sidebar.evaluate((el) => {
      const box = el.getBoundingClientRect();
      return box.width > 0 && box.right > 1 && getComputedStyle(el).visibility !== 'hidden';
    });
  }

  async openLogoutDialog() {
    await this.logoutButton.click();
    await this.logoutDialog.waitFor();
  }
}
