import { fileURLToPath } from 'node:url';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../tests/support/app';
import { collectPageErrors, startE2E, type E2E } from './support/browser';

/**
 * A trader signs up, imports a Tradovate Performance file and a TopstepX file through the Trade
 * Log's import dialog (creating the trading account on the spot), sees the preview, confirms, sees the toast, and a
 * re-import adds 0 trades. The files are the real exports in ../shared/fixtures/brokers.
 */
const fixture = (path: string) => fileURLToPath(new URL(`../../shared/fixtures/brokers/${path}`, import.meta.url));
const TRADOVATE = fixture('tradovate-performance/freetradejournal__tradovate-trades-performance.csv');
const TOPSTEPX = fixture('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv');

/** The import button, its dialog and the Trade Import Guide, as a trader sees them. */
class ImportDialogPage {
  constructor(readonly page: Page) {}

  get button() {
    return this.page.getByTestId('import-button');
  }
  get dialog() {
    return this.page.getByRole('dialog', { name: 'Import Trades' });
  }
  get preview() {
    return this.dialog.getByTestId('import-preview');
  }
  get confirm() {
    return this.dialog.getByTestId('import-confirm');
  }
  get accountSelect(): Locator {
    return this.dialog.getByLabel('Trading account');
  }
  count(what: 'new' | 'duplicate' | 'open' | 'error') {
    return this.dialog.getByTestId(`import-${what}-count`);
  }

  async choose(file: string) {
    await this.button.waitFor();
    await this.page.getByTestId('import-file-input').setInputFiles(file);
    await this.dialog.waitFor();
    await this.preview.waitFor({ timeout: 30_000 });
  }

  toast(text: string) {
    return this.page.getByText(text, { exact: true });
  }
}

describe('importing broker files in the Trade Log', () => {
  let e2e: E2E;
  beforeAll(async () => {
    e2e = await startE2E({ backend: 'pglite' });
  });
  afterAll(() => e2e?.close());

  it('imports a Tradovate and a TopstepX export into a new account, and a re-import adds nothing', async () => {
    const page = await e2e.newPage();
    const errors = collectPageErrors(page);

    // Sign up through the register page.
    await page.goto('/register');
    await page.getByLabel('Email').fill(uniqueEmail('importer'));
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-9');
    await page.getByLabel('Confirm Password').fill('correct-horse-9');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');

    await page.goto('/trade-log');
    const imports = new ImportDialogPage(page);

    // The guide lists every format with its columns.
    await page.getByTestId('import-guide-button').click();
    const guide = page.getByRole('dialog', { name: 'Trade Import Guide' });
    await expect.poll(() => guide.getByText('Tradovate Performance.csv').isVisible()).toBe(true);
    await expect.poll(() => guide.getByText('TopstepX trades export', { exact: false }).first().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await guide.waitFor({ state: 'hidden' });

    // 1. Tradovate Performance.csv: detected, two trades, no account yet.
    await imports.choose(TRADOVATE);
    await expect.poll(() => imports.dialog.getByText('Detected: Tradovate Performance.csv').isVisible()).toBe(true);
    expect(await imports.count('new').innerText()).toBe('2');
    expect(await imports.count('duplicate').innerText()).toBe('0');
    const table = imports.dialog.getByTestId('import-trades');
    expect(await table.locator('tbody tr').count()).toBe(2);
    expect(await table.innerText()).toContain('-$400.00');
    expect(await table.innerText()).toContain('$1,200.00');
    expect(await imports.dialog.getByTestId('import-net-total').innerText()).toBe('$800.00');

    // Confirming without an account is refused with the spec's message.
    await imports.confirm.click();
    await imports.dialog.getByText('Please select a trading account').waitFor();

    // The picker switches to a create-account form and back, with the new account selected.
    await imports.dialog.getByTestId('import-new-account').click();
    await imports.dialog.getByTestId('import-account-name').fill('Tradovate Combine');
    await imports.dialog.getByTestId('import-account-create').click();
    await imports.toast('Trading account created and selected').waitFor();
    await expect.poll(() => imports.accountSelect.inputValue()).toMatch(/^Tradovate Combine/);
    await imports.preview.waitFor();

    await imports.confirm.click();
    await imports.toast('Trades imported successfully (2 trades have been imported)').waitFor();
    await imports.dialog.waitFor({ state: 'hidden' });

    const accounts = await (await page.request.get('/api/accounts')).json();
    const account = accounts.find((a: { name: string }) => a.name === 'Tradovate Combine');
    expect(account).toBeTruthy();
    const tradesOf = async () =>
      (await (await page.request.get(`/api/trades?account=${account.id}&limit=500`)).json()).trades as Array<Record<string, unknown>>;
    const afterTradovate = await tradesOf();
    // The export has no costs: the new account's default fee schedule charged 5 MNQ x 2 sides x $0.62 on each.
    expect(afterTradovate.map((t) => t.pnl).sort()).toEqual(['-406.20', '1193.80']);
    expect(afterTradovate.every((t) => t.import_source === 'tradovate-performance' && t.symbol === 'MNQ')).toBe(true);

    // 2. TopstepX trades export (fees become commission), into the account that is now selected.
    await imports.choose(TOPSTEPX);
    await expect.poll(() => imports.dialog.getByText('Detected: TopstepX', { exact: false }).isVisible()).toBe(true);
    await expect.poll(() => imports.accountSelect.inputValue()).toMatch(/^Tradovate Combine/);
    expect(await imports.count('new').innerText()).toBe('334');
    await imports.confirm.click();
    await imports.toast('Trades imported successfully (334 trades have been imported)').waitFor();
    await imports.dialog.waitFor({ state: 'hidden' });
    const total = (await (await page.request.get(`/api/trades?account=${account.id}&limit=1`)).json()).total;
    expect(total).toBe(336);

    // 3. The Tradovate file again: 0 new trades, 2 duplicates, and nothing to import: the button that would store
    // nothing is off.
    await imports.choose(TRADOVATE);
    expect(await imports.count('new').innerText()).toBe('0');
    expect(await imports.count('duplicate').innerText()).toBe('2');
    await imports.dialog.getByTestId('import-no-new-trades').waitFor();
    expect(await imports.confirm.innerText()).toBe('Import 0 trades');
    expect(await imports.confirm.isDisabled()).toBe(true);
    await imports.dialog.getByRole('button', { name: 'Cancel' }).click();
    await imports.dialog.waitFor({ state: 'hidden' });
    expect((await (await page.request.get(`/api/trades?account=${account.id}&limit=1`)).json()).total).toBe(336);

    expect(errors).toEqual([]);
  });

  it('says why a file cannot be imported (not an array), and asks for the columns of a CSV of an unknown format', async () => {
    const page = await e2e.newPage();
    const errors = collectPageErrors(page);
    await page.goto('/register');
    await page.getByLabel('Email').fill(uniqueEmail('importer'));
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-9');
    await page.getByLabel('Confirm Password').fill('correct-horse-9');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await page.waitForURL((url) => url.pathname === '/');
    await page.goto('/trade-log');
    const imports = new ImportDialogPage(page);
    await imports.button.waitFor();

    const input = page.getByTestId('import-file-input');
    await input.setInputFiles({ name: 'backup.json', mimeType: 'application/json', buffer: Buffer.from('{"trades": 1}') });
    const error = imports.dialog.getByTestId('import-error');
    await error.waitFor();
    expect(await error.innerText()).toContain('Invalid file format: The file does not contain an array of trade data');
    await imports.dialog.getByRole('button', { name: 'Cancel' }).click();
    await imports.dialog.waitFor({ state: 'hidden' });

    // A CSV no format reads is no dead end: the dialog says so and asks for its columns, and
    // nothing can be imported until the columns marked * are chosen (this one has no price column).
    await input.setInputFiles({ name: 'mystery.csv', mimeType: 'text/csv', buffer: Buffer.from('Ticker,When,Amount\nNQ,2025-01-02,5\n') });
    const mapping = imports.dialog.getByTestId('import-column-mapping');
    await mapping.waitFor();
    expect(await mapping.innerText()).toContain('Unknown file format.');
    expect(await mapping.getByTestId('mapping-symbol').inputValue()).toBe('Ticker');
    expect(await mapping.getByTestId('mapping-quantity').inputValue()).toBe('Amount');
    expect(await mapping.getByTestId('mapping-price').inputValue()).toBe('');
    await imports.dialog.getByTestId('import-mapping-incomplete').waitFor();
    expect(await imports.confirm.isDisabled()).toBe(true);
    expect(await error.count()).toBe(0);

    expect(errors).toEqual([]);
  });
});
