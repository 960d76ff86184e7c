import type { Locator, Page } from 'playwright-core';

/** The Trade Reflections page. */
export class ReflectPage {
  constructor(readonly page: Page) {}

  async goto(search = '') {
    await this.page.goto(`/reflect${search}`);
    await this.page.getByRole('heading', { name: 'Trade Reflections', level: 1 }).waitFor();
  }

  tab(name: 'Day' | 'Week' | 'Month'): Locator {
    return this.page.getByRole('tab', { name, exact: true });
  }
  get label() {
    return this.page.getByTestId('period-label');
  }
  get previous() {
    return this.page.getByTestId('period-previous');
  }
  get next() {
    return this.page.getByTestId('period-next');
  }
  get cards() {
    return this.page.getByTestId('reflection-card');
  }
  card(symbol: string): Locator {
    return this.cards.filter({ has: this.page.getByTestId('reflection-symbol').getByText(symbol, { exact: true }) });
  }
  get empty() {
    return this.page.getByTestId('reflections-empty');
  }
  get summarize() {
    return this.page.getByRole('button', { name: 'Summarize' });
  }
  get aiAnalysis() {
    return this.page.getByTestId('ai-analysis');
  }
  get analysisDialog() {
    return this.page.getByRole('dialog').filter({ hasText: 'AI Trade Analysis' });
  }
  get summaryCard() {
    return this.page.getByTestId('summary-card');
  }
  toast(text: string): Locator {
    return this.page.locator('.mantine-Notification-root').filter({ hasText: text });
  }

  /** Waits until the label shows `label` and the period's data (cards or the empty text) has arrived. */
  async showing(label: string) {
    await this.page
      .getByTestId('period-label')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .waitFor();
    await this.page.locator('[data-testid="reflections"], [data-testid="reflections-empty"]').first().waitFor();
  }
}
