import type { BrowserContext, Locator, Page } from 'playwright-core';
import { uniqueEmail, type ApiClient, type TestApp } from '../../tests/support/app';
import { addSessionCookies } from '../support/accounts';

/**
 * A trader with an HTTP client (to seed trades and accounts, and to read what the server stored) whose session the
 * browser profile shares. Sign-ups come from the client's own loopback address, not the browser's.
 */
export async function signedInTrader(app: TestApp, context: BrowserContext, prefix = 'trader'): Promise<ApiClient> {
  const client = app.client();
  const res = await client.signUp(uniqueEmail(prefix));
  if (res.status !== 200) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  await addSessionCookies(app, context, client);
  return client;
}

/** The Trade Log page. */
export class TradeLogPage {
  constructor(readonly page: Page) {}

  async goto() {
    await this.page.goto('/trade-log');
    await this.page.getByRole('heading', { name: 'Trade Log', level: 1 }).waitFor();
    await this.tradesPanel.waitFor();
  }

  get tradesPanel() {
    return this.page.getByTestId('trades-panel');
  }
  get rows() {
    return this.tradesPanel.getByTestId('trade-row');
  }
  get cards() {
    return this.tradesPanel.getByTestId('trade-card');
  }
  row(text: string | RegExp): Locator {
    return this.rows.filter({ hasText: text });
  }
  get footer() {
    return this.page.getByTestId('trades-footer');
  }
  get total() {
    return this.page.getByTestId('trades-total');
  }
  get statsPanel() {
    return this.page.getByTestId('stats-panel');
  }
  get analysisPanel() {
    return this.page.getByTestId('analysis-panel');
  }
  get accountSelector() {
    return this.page.getByTestId('account-selector');
  }

  /** The newest toast with this text (a new toast replaces the current one, which is still leaving the page). */
  toast(text: string | RegExp): Locator {
    return this.page.getByRole('alert').filter({ hasText: text }).last();
  }

  async chooseAccount(label: string | RegExp) {
    await this.accountSelector.click();
    await this.page.getByRole('option', { name: label }).click();
  }

  /** Waits until the trade list shows exactly these instruments, top to bottom. */
  async instruments(): Promise<string[]> {
    return (await this.tradesPanel.getByTestId('trade-instrument-cell').allInnerTexts()).map((t) => t.trim());
  }

  // Add New Trade / Edit Trade dialogs
  get addDialog() {
    return this.page.getByRole('dialog', { name: 'Add New Trade' });
  }
  get editDialog() {
    return this.page.getByRole('dialog', { name: 'Edit Trade' });
  }
  async openAddTrade() {
    await this.page.getByTestId('add-trade').click();
    await this.addDialog.waitFor();
  }
  async chooseResult(dialog: Locator, result: 'Win' | 'Loss' | 'BE') {
    await dialog.getByTestId('trade-result-input').getByText(result, { exact: true }).click();
  }
  pnlInput(dialog: Locator) {
    return dialog.getByLabel('PnL (before commission)');
  }

  // Select mode
  get selectModeButton() {
    return this.page.getByTestId('select-mode');
  }
  get selectAllButton() {
    return this.page.getByTestId('select-all');
  }
  get deleteSelectedButton() {
    return this.page.getByTestId('delete-selected');
  }
  get bulkDeleteDialog() {
    return this.page.getByRole('dialog', { name: 'Delete Selected' });
  }
}
