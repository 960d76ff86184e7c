import type { Locator, Page } from 'playwright-core';

/** The Ctrl/Cmd + K search palette. Only entries matching the query are rendered. */
export class SearchPalette {
  constructor(readonly page: Page) {}

  get input() {
    return this.page.getByTestId('search-input');
  }
  get entries() {
    return this.page.locator('[data-testid^="search-entry-"]');
  }

  entry(id: string): Locator {
    return this.page.getByTestId(`search-entry-${id}`);
  }

  message(text: string): Locator {
    return this.page.getByText(text, { exact: true });
  }

  async openWithShortcut() {
    await this.page.keyboard.press('Control+k');
    await this.input.waitFor();
    // Spotlight moves the focus into its input once it has opened; keys typed before then would land on the page.
    await this.page.waitForFunction(() => document.activeElement?.getAttribute('data-testid') === 'search-input');
  }

  async search(query: string) {
    await this.input.fill(query);
  }

  /** The ids of the entries shown for the current query (search-entry-<id>). */
  async shownIds(): Promise<string[]> {
    const ids = await this.entries.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid') ?? ''));
    return ids.map((id) => id.replace(/^search-entry-/, ''));
  }

  async close() {
    await this.page.keyboard.press('Escape');
    await this.input.waitFor({ state: 'hidden' });
  }
}
