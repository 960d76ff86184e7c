import type { Locator, Page } from 'playwright-core';

/** A trade's page. */
export class TradeDetailsPage {
  constructor(readonly page: Page) {}

  async goto(id: string) {
    await this.page.goto(`/trade/${id}`);
    await this.page.locator('[data-testid="trade-details"], [data-testid="trade-not-found"]').first().waitFor();
  }

  get symbol() {
    return this.page.getByTestId('trade-symbol');
  }
  get pnl() {
    return this.page.getByTestId('trade-pnl-header');
  }
  get date() {
    return this.page.getByTestId('trade-date');
  }
  get previous() {
    return this.page.getByTestId('trade-previous');
  }
  get next() {
    return this.page.getByTestId('trade-next');
  }
  field(label: string): Locator {
    return this.page.locator(`[data-testid="trade-field"][data-label="${label}"]`);
  }
  get linkedNotes() {
    return this.page.getByTestId('linked-notes');
  }
  get attachments() {
    return this.page.getByTestId('trade-attachments');
  }
  get notFound() {
    return this.page.getByTestId('trade-not-found');
  }
  /** The newest toast with this text (a new toast replaces the current one, which is still leaving the page). */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('alert').filter({ hasText: text }).last();
  }
}
