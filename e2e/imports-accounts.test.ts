import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { importFile } from '../tests/api/imports-support';
import { createAccount } from '../tests/api/trades-support';
import { tradovateOrdersCsv } from '../tests/support/broker-files';
import { signedInTrader } from './pages/trade-log';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * A file with two evaluation accounts imported into two trading accounts chosen in the
 * dialog (and remembered), the fee schedule edited from the preview, a file in London time read as New York caught
 * and fixed with one click, and the trading-day setting. The files are our own fixtures beside the importers.
 */
const own = (name: string) => new URL(`../src/domain/importers/fixtures/${name}`, import.meta.url);
const TWO_ACCOUNTS = own('tradovate-orders-two-accounts.csv');
const LONDON = own('tradovate-performance-london.csv');
const UNKNOWN = own('unknown-broker-fills.csv');
const TRADOVATE_PERFORMANCE = new URL(
  '../../shared/fixtures/brokers/tradovate-performance/freetradejournal__tradovate-trades-performance.csv',
  import.meta.url,
);
const SHOTS = process.env.IMPORT_SHOTS;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: false });
}

class ImportDialog {
  constructor(readonly page: Page) {}
  get dialog() {
    return this.page.getByRole('dialog', { name: 'Import Trades' });
  }
  get preview() {
    return this.dialog.getByTestId('import-preview');
  }
  async choose(file: URL) {
    await this.page.getByTestId('import-button').waitFor();
    await this.page.getByTestId('import-file-input').setInputFiles(file.pathname);
    await this.preview.waitFor({ timeout: 30_000 });
  }
  count(what: 'new' | 'duplicate') {
    return this.dialog.getByTestId(`import-${what}-count`);
  }
  async pick(label: string, option: string) {
    await this.dialog.getByLabel(label).click();
    await this.page.getByRole('option', { name: option, exact: true }).click();
  }
}

describe('imports of prop-firm files', () => {
  const suite = useE2ESuite();

  it('maps the two accounts of one file to two trading accounts, and remembers them for the next file', async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900 });
    const trader = await signedInTrader(suite.e2e.app, context, 'prop');
    const combine = await createAccount(trader, 'Combine 50K');
    const express = await createAccount(trader, 'Express Funded');
    await page.goto('/trade-log');
    const imports = new ImportDialog(page);
    await imports.choose(TWO_ACCOUNTS);

    const rows = imports.dialog.getByTestId('import-file-account');
    await eventually(() => rows.count()).toBe(2);
    expect(await rows.nth(0).innerText()).toContain('APEX-1001');
    expect(await rows.nth(1).innerText()).toContain('APEX-1002');
    // Nothing is chosen yet, so nothing can be imported.
    await imports.dialog.getByTestId('import-unmapped').waitFor();
    expect(await imports.dialog.getByTestId('import-confirm').isDisabled()).toBe(true);
    await shot(page, 'multi-account-unmapped-dark-1440');

    await imports.pick('Trading account for APEX-1001', 'Combine 50K');
    await imports.preview.waitFor();
    await imports.pick('Trading account for APEX-1002', 'Express Funded');
    await eventually(() => imports.dialog.getByTestId('import-unmapped').count()).toBe(0);
    await eventually(() => imports.count('new').innerText()).toBe('6');
    // The export has no costs: the default schedule is applied and shown for both accounts.
    const fees = imports.dialog.getByTestId('import-fees');
    expect(await fees.innerText()).toContain('Combine 50K');
    expect(await fees.innerText()).toContain('Express Funded');
    await shot(page, 'multi-account-mapped-dark-1440');

    await imports.dialog.getByTestId('import-confirm').click();
    await page.getByText('Trades imported successfully (6 trades have been imported)', { exact: true }).waitFor();
    const symbols = async (accountId: string) =>
      ((await (await page.request.get(`/api/trades?account=${accountId}&limit=50`)).json()).trades as Array<{ symbol: string; pnl: string }>).map(
        (t) => t.symbol,
      );
    expect(await symbols(combine.id)).toEqual(['MNQ', 'MNQ', 'MNQ']);
    expect(await symbols(express.id)).toEqual(['MES', 'MES', 'MES']);

    // The same file again: both accounts are remembered, and every trade is a duplicate.
    await imports.choose(TWO_ACCOUNTS);
    await eventually(() => imports.count('duplicate').innerText()).toBe('6');
    expect(await imports.dialog.getByTestId('import-file-accounts').innerText()).toContain('remembered');
    expect(await imports.count('new').innerText()).toBe('0');
  });

  it('switches the Trade Log to an account created in the import dialog once its trades are imported', async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900 });
    const trader = await signedInTrader(suite.e2e.app, context, 'newacct');
    await createAccount(trader, 'Main', { is_default: true });
    await page.goto('/trade-log');
    const selector = page.getByTestId('account-selector');
    await eventually(() => selector.inputValue()).toMatch(/^Main/);
    await page.getByTestId('trades-empty').waitFor();

    const imports = new ImportDialog(page);
    await imports.choose(TRADOVATE_PERFORMANCE);
    // The default account is marked with the same ★ as in the Trade Log's selector (★ and ⭐).
    expect(await imports.dialog.getByLabel('Trading account').inputValue()).toBe('Main ★');
    await imports.dialog.getByTestId('import-new-account').click();
    await imports.dialog.getByTestId('import-account-name').fill('Evaluation 2');
    await imports.dialog.getByTestId('import-account-create').click();
    await eventually(() => imports.dialog.getByLabel('Trading account').inputValue()).toBe('Evaluation 2');
    await imports.preview.waitFor();
    await eventually(() => imports.count('new').innerText()).toBe('2');
    await imports.dialog.getByTestId('import-confirm').click();
    await imports.dialog.waitFor({ state: 'hidden', timeout: 30_000 });

    // The page now shows the new account and its two trades (it stayed on Main, which has none).
    await eventually(() => selector.inputValue()).toBe('Evaluation 2');
    await eventually(() => page.getByTestId('trade-row').count()).toBe(2);
    expect(await page.getByTestId('trades-total').innerText()).toBe('2 trades');
    // A reload keeps the choice for the session.
    await page.reload();
    await eventually(() => selector.inputValue()).toBe('Evaluation 2');
  });

  it('edits the fee schedule from the preview; the trades are read again with it', async () => {
    const { page, context } = await suite.scenario({ width: 390, height: 844, colorScheme: 'light' });
    const trader = await signedInTrader(suite.e2e.app, context, 'fees');
    await createAccount(trader, 'Fee account', { is_default: true });
    await page.goto('/trade-log');
    const imports = new ImportDialog(page);
    await imports.choose(LONDON);
    await imports.dialog.getByTestId('import-fees').waitFor();
    // 1 + 2 + 1 + 1 + 1 + 3 = 9 MNQ round trips x 2 sides x $0.62
    await eventually(() => imports.dialog.getByTestId('import-summary').innerText()).toContain('6');
    expect(await imports.dialog.getByText('commissions $11.16', { exact: false }).count()).toBe(1);
    await imports.dialog.getByTestId('import-fees-edit').click();
    const editor = imports.dialog.getByTestId('fee-schedule-editor');
    await editor.getByText('Add a rate for one instrument').click();
    await editor.getByLabel('Instrument root').fill('MNQ');
    await editor.getByLabel('Rate for MNQ').fill('0.25');
    await shot(page, 'fee-editor-light-390');
    await editor.getByTestId('fee-save').click();
    await page.getByText('Fee schedule saved', { exact: true }).waitFor();
    // 9 x 2 x $0.25
    await eventually(() => imports.dialog.getByText('commissions $4.50', { exact: false }).count()).toBe(1);
    expect(await imports.dialog.getByTestId('import-fees').innerText()).toContain('MNQ $0.25');
  });

  it("sets an account's fee schedule from the Trading Accounts panel and applies it to the account's earlier imports", async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900 });
    const trader = await signedInTrader(suite.e2e.app, context, 'account-fees');
    const account = await createAccount(trader, 'Tradovate Combine', { is_default: true });
    const imported = await importFile(trader, { account_id: account.id, time_zone: 'Europe/London' }, fs.readFileSync(LONDON, 'utf8'));
    expect(imported.body.imported).toBe(6);
    const commissions = async () =>
      ((await (await page.request.get(`/api/trades?account=${account.id}&limit=50`)).json()).trades as Array<{ commission: string }>).reduce(
        (sum, t) => sum + Math.round(Number(t.commission) * 100),
        0,
      );
    // 9 MNQ round trips x 2 sides x the default $0.62
    expect(await commissions()).toBe(1116);

    await page.goto('/trade-log');
    await page.getByTestId('toggle-accounts').click();
    await page.getByTestId('current-account').getByTestId('account-fees').click();
    const modal = page.getByRole('dialog', { name: 'Commissions and Fees' });
    const editor = modal.getByTestId('fee-schedule-editor');
    await editor.waitFor();
    expect(await editor.getByLabel('Micro contracts').inputValue()).toBe('0.62');
    await editor.getByLabel('Micro contracts').fill('1.10');
    await shot(page, 'account-fees-dark-1440');
    await editor.getByTestId('fee-save-apply').click();
    await page.getByText('Fee schedule saved and applied to 6 imported trades of Tradovate Combine', { exact: true }).waitFor();
    await modal.waitFor({ state: 'hidden' });
    // 9 x 2 x $1.10
    await eventually(commissions).toBe(1980);
  });

  it('catches a London-time file read as New York time and reads it again in one click', async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900, colorScheme: 'light' });
    const trader = await signedInTrader(suite.e2e.app, context, 'london');
    await createAccount(trader, 'London', { is_default: true });
    await page.goto('/trade-log');
    const imports = new ImportDialog(page);
    await imports.choose(LONDON);
    const warning = imports.dialog.getByTestId('import-time-zone-warning');
    await warning.waitFor();
    expect(await warning.innerText()).toContain('4 of 12 fills fall while the exchange is closed');
    await shot(page, 'time-zone-warning-light-1440');
    await warning.getByRole('button', { name: 'Read as Europe/London' }).click();
    await eventually(() => imports.dialog.getByTestId('import-time-zone').inputValue()).toBe('Europe/London');
    await imports.preview.waitFor();
    await eventually(() => warning.count()).toBe(0);
    // 14:35 London is 09:35 New York: the first trade is in the AM session.
    expect(await imports.dialog.getByTestId('import-trades').locator('tbody tr').first().innerText()).toContain('AM');
  });

  it('maps the columns of a CSV from a broker it does not know, previews live, imports, and remembers the mapping', async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900 });
    const trader = await signedInTrader(suite.e2e.app, context, 'mapper');
    const account = await createAccount(trader, 'Other broker', { is_default: true });
    await page.goto('/trade-log');
    const imports = new ImportDialog(page);
    await page.getByTestId('import-button').waitFor();
    await page.getByTestId('import-file-input').setInputFiles(UNKNOWN.pathname);
    const form = imports.dialog.getByTestId('import-column-mapping');
    await form.waitFor();
    // The first guess from the header names, which the trader can correct.
    const chosen = async (field: string) => form.getByTestId(`mapping-${field}`).inputValue();
    expect(await chosen('time')).toBe('Trade Time');
    expect(await chosen('symbol')).toBe('Ticker');
    expect(await chosen('side')).toBe('Action');
    expect(await chosen('quantity')).toBe('Shares');
    expect(await chosen('price')).toBe('Fill Price');
    expect(await chosen('commission')).toBe('Fees');
    await imports.preview.waitFor({ timeout: 30_000 });
    await eventually(() => imports.count('new').innerText()).toBe('2');
    const table = imports.dialog.getByTestId('import-trades');
    expect(await table.innerText()).toContain('$62.52');
    await shot(page, 'column-mapping-dark-1440');

    // Live: without the side column every quantity reads as a buy, so nothing closes.
    await form.getByRole('button', { name: 'Clear Side (buy or sell)' }).click();
    await eventually(() => imports.count('new').innerText()).toBe('0');
    expect(await imports.dialog.getByTestId('import-open-count').innerText()).toBe('2');
    await imports.pick('Side (buy or sell)', 'Action');
    await eventually(() => imports.count('new').innerText()).toBe('2');

    await imports.dialog.getByTestId('import-confirm').click();
    await page.getByText('Trades imported successfully (2 trades have been imported)', { exact: true }).waitFor();
    const stored = (await (await page.request.get(`/api/trades?account=${account.id}&limit=10`)).json()).trades as Array<{
      symbol: string;
      pnl: string;
      import_source: string;
    }>;
    expect(stored.map((t) => [t.symbol, t.pnl, t.import_source]).sort()).toEqual([
      ['MES', '62.52', 'mapped'],
      ['MNQ', '21.76', 'mapped'],
    ]);

    // The next export of that broker is read with the remembered mapping, no questions asked.
    await page.getByTestId('import-file-input').setInputFiles(UNKNOWN.pathname);
    await imports.preview.waitFor({ timeout: 30_000 });
    await eventually(() => imports.count('duplicate').innerText()).toBe('2');
    expect(await imports.dialog.getByTestId('import-column-mapping').innerText()).toContain('Read with the mapping you made');
  });

  it('shows the upload progress of a large file on a slow connection', async () => {
    const { page, context } = await suite.scenario({ width: 1440, height: 900 });
    const trader = await signedInTrader(suite.e2e.app, context, 'uploader');
    await createAccount(trader, 'Slow line', { is_default: true });
    await page.goto('/trade-log');
    await page.getByTestId('import-button').waitFor();
    // 3 MB of Tradovate fills over an emulated 1 MB/s uplink: about three seconds of upload to watch.
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 1_000_000 });
    const csv = tradovateOrdersCsv(12_000);
    expect(csv.length).toBeGreaterThan(2_500_000);
    await page.getByTestId('import-file-input').setInputFiles({ name: 'Orders.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    const progress = page.getByTestId('import-upload-progress');
    await progress.waitFor({ timeout: 30_000 });
    const text = await progress.innerText();
    expect(text).toMatch(/^Uploading file\.\.\. \d{1,2}% \([\d.]+ (KB|MB) of [\d.]+ MB\)$/);
    await shot(page, 'upload-progress-dark-1440');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    const dialog = page.getByRole('dialog', { name: 'Import Trades' });
    await dialog.getByTestId('import-preview').waitFor({ timeout: 60_000 });
    expect(Number((await dialog.getByTestId('import-new-count').innerText()).replace(/,/g, ''))).toBeGreaterThan(4_000);
  });
});
