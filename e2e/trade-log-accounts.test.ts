import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { useE2ESuite } from './support/scenario';

/**
 * Trading accounts and moving trades between traders, in Chromium (the
 * Unassigned-trades dialog, assignment, export): the account manager, the delete guard, assigning
 * unassigned trades, and export then import into a new trader giving the same trades and statistics.
 */

const suite = useE2ESuite();

async function trader(): Promise<{ client: ApiClient; page: Page; log: TradeLogPage }> {
  const s = await suite.scenario();
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, page: s.page, log: new TradeLogPage(s.page) };
}

async function createAccount(client: ApiClient, name: string, extra: Record<string, unknown> = {}) {
  const res = await client.post('/api/accounts', { name, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { id: string; name: string; is_default: boolean };
}

const selectorValue = (log: TradeLogPage) => log.accountSelector.inputValue();

describe('the trading account manager', () => {
  it('creates, edits and sets a default account, and refuses to delete one that trades use', async () => {
    const { client, page, log } = await trader();
    await log.goto();
    await page.getByTestId('toggle-accounts').click();
    const panel = page.getByTestId('accounts-panel');
    await panel.getByTestId('accounts-empty').waitFor();

    // Create, with the name required.
    await panel.getByRole('button', { name: 'New Account' }).click();
    const form = page.getByRole('dialog', { name: 'Create Trading Account' });
    await form.waitFor();
    expect(await form.getByLabel('Description (Optional)').count()).toBe(1);
    expect(await form.getByLabel('Set as default account').count()).toBe(1);
    // Its close button has a name, and closes it.
    await form.getByRole('button', { name: 'Close', exact: true }).click();
    await form.waitFor({ state: 'hidden' });
    await panel.getByRole('button', { name: 'New Account' }).click();
    await form.waitFor();
    await form.getByRole('button', { name: 'Create' }).click();
    await form.getByText('Account name is required').waitFor();
    await form.getByLabel('Account Name').fill('Apex 50K');
    await form.getByLabel('Description (Optional)').fill('Evaluation');
    await form.getByRole('button', { name: 'Create' }).click();
    await log.toast('Trading account created successfully').waitFor();
    await form.waitFor({ state: 'hidden' });
    // A trader's first account is the default: starred in the selector, badged on the card.
    await expect.poll(() => selectorValue(log)).toBe('Apex 50K ★');
    const card = panel.getByTestId('current-account');
    expect(await card.getByTestId('current-account-name').innerText()).toBe('Apex 50K');
    await card.getByTestId('default-badge').waitFor();

    // A second account, not default: it becomes the viewed account; the All Accounts list appears.
    await panel.getByRole('button', { name: 'New Account' }).click();
    await form.getByLabel('Account Name').fill('Topstep');
    await form.getByRole('button', { name: 'Create' }).click();
    await log.toast('Trading account created successfully').waitFor();
    await expect.poll(() => card.getByTestId('current-account-name').innerText()).toBe('Topstep');
    expect(await card.getByTestId('default-badge').count()).toBe(0);
    await panel.getByTestId('all-accounts').waitFor();
    expect(await panel.getByTestId('all-accounts').innerText()).toMatch(/Apex 50K[\s\S]*Topstep/);

    await card.getByRole('button', { name: 'Set Default' }).click();
    await log.toast('Default account updated successfully').waitFor();
    await card.getByTestId('default-badge').waitFor();
    await expect.poll(() => selectorValue(log)).toBe('Topstep ★');
    // The open list marks the default with the same ★ as the closed field, and only one (★ and ⭐).
    await log.page.getByTestId('account-selector').click();
    const options = log.page.getByRole('option');
    await options.first().waitFor();
    const labels = await options.allInnerTexts();
    expect(labels.filter((l) => l.includes('★')).map((l) => l.replace(/\s+/g, ' ').trim())).toEqual(['Topstep ★']);
    expect(labels.join('')).not.toContain('⭐');
    await log.page.keyboard.press('Escape');

    // Edit.
    await card.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Trading Account' });
    await edit.waitFor();
    expect(await edit.getByLabel('Set as default account').isChecked()).toBe(true);
    await edit.getByLabel('Account Name').fill('Topstep 100K');
    await edit.getByRole('button', { name: 'Update' }).click();
    await log.toast('Trading account updated successfully').waitFor();
    await expect.poll(() => card.getByTestId('current-account-name').innerText()).toBe('Topstep 100K');
    const accounts = (await client.get('/api/accounts')).body as Array<{ name: string; is_default: boolean }>;
    expect(accounts.map((a) => [a.name, a.is_default])).toEqual([
      ['Topstep 100K', true],
      ['Apex 50K', false],
    ]);

    // A trade in the account: deleting it is refused with the spec's message and description.
    const topstep = (await client.get('/api/accounts')).body[0] as { id: string };
    expect((await client.post('/api/trades', { account_id: topstep.id, period: 'AM', date: '2026-03-09', pnl: 10 })).status).toBe(201);
    await card.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Trading Account' });
    await confirm.getByText('Are you sure you want to delete "Topstep 100K"? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    const refusal = log.toast('Cannot delete account with existing trades');
    await refusal.waitFor();
    expect(await refusal.innerText()).toContain('Please delete all trades for this account first');
    expect(((await client.get('/api/accounts')).body as unknown[]).length).toBe(2);

    // An unused account goes, after the confirmation.
    await panel.getByTestId('all-accounts').getByRole('button', { name: 'Apex 50K', exact: true }).click();
    await expect.poll(() => card.getByTestId('current-account-name').innerText()).toBe('Apex 50K');
    await card.getByRole('button', { name: 'Delete' }).click();
    await confirm.getByText('Are you sure you want to delete "Apex 50K"? This action cannot be undone.').waitFor();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await log.toast('Trading account deleted successfully').waitFor();
    await panel.getByTestId('all-accounts').waitFor({ state: 'detached' });
    await expect.poll(() => card.getByTestId('current-account-name').innerText()).toBe('Topstep 100K');
  });
});

describe('unassigned trades', () => {
  it('lists them under Unassigned Trades (N) and assigns them to an account', async () => {
    const { client, page, log } = await trader();
    const main = await createAccount(client, 'Main');
    for (const [i, symbol] of ['ES', 'NQ', 'YM'].entries()) {
      expect((await client.post('/api/trades', { symbol, period: 'AM', date: `2026-03-0${i + 2}`, pnl: 10 - i * 10 })).status).toBe(201);
    }
    await log.goto();
    // First load picks the default account: it has no trades yet.
    await expect.poll(() => selectorValue(log)).toBe('Main ★');
    await log.tradesPanel.getByTestId('trades-empty').waitFor();
    // An empty account has no win rate or profit factor to show: '—', not '0.0%' and '0.00'.
    await expect.poll(() => log.statsPanel.getByTestId('stat-win-rate').innerText()).toBe('—');
    expect(await log.statsPanel.getByTestId('stat-profit-factor').innerText()).toBe('—');
    await log.chooseAccount('Unassigned Trades (3)');
    await expect.poll(() => log.rows.count()).toBe(3);
    // The Trade Account column shows only when viewing all accounts.
    expect(await page.getByTestId('trade-account-cell').count()).toBe(0);
    await log.chooseAccount('All Trades');
    await expect.poll(() => page.getByTestId('trade-account-cell').allInnerTexts()).toEqual(['Unassigned', 'Unassigned', 'Unassigned']);

    await page.getByTestId('open-unassigned').click();
    const dialog = page.getByRole('dialog', { name: 'Manage Unassigned Trades' });
    await dialog.getByTestId('unassigned-table').waitFor();
    expect(await dialog.getByTestId('unassigned-row').count()).toBe(3);
    expect(await dialog.locator('thead').innerText()).toMatch(/Select\s+Date\s+Symbol\s+Type\s+PnL\s+Status/);
    await dialog.getByTestId('unassigned-assign').click();
    await log.toast('Please select trades to assign').waitFor();
    await dialog.getByTestId('unassigned-select-all').check();
    expect(await dialog.getByTestId('unassigned-account').inputValue()).toBe('Main ★');
    // Choosing the chosen account again keeps it (the picker cleared).
    await dialog.getByTestId('unassigned-account').click();
    await page.getByRole('option', { name: 'Main ★' }).click();
    expect(await dialog.getByTestId('unassigned-account').inputValue()).toBe('Main ★');
    await dialog.getByTestId('unassigned-assign').click();
    await log.toast('Successfully assigned 3 trades to account').waitFor();
    await dialog.getByText('No Unassigned Trades').waitFor();
    await page.keyboard.press('Escape');

    await expect.poll(() => page.getByTestId('trade-account-cell').allInnerTexts()).toEqual(['Main', 'Main', 'Main']);
    const stored = (await client.get('/api/trades?limit=10')).body.trades as Array<{ account_id: string }>;
    expect(stored.map((t) => t.account_id)).toEqual([main.id, main.id, main.id]);
    expect((await client.get('/api/trades/unassigned-count')).body).toEqual({ count: 0 });
  });
});

describe('export and import', () => {
  it('exports a JSON backup that, imported into a new trader, gives the same trades and statistics', async () => {
    const a = await trader();
    const account = await createAccount(a.client, 'Original');
    const trades = Array.from({ length: 12 }, (_, i) => ({
      date: `2026-02-${String(i + 2).padStart(2, '0')}`,
      symbol: ['NQ', 'ES', 'YM'][i % 3],
      period: ['AM', 'PM'][i % 2],
      trade_type: 'Reversal',
      pnl: [125.5, -80.25, 0, 310, -45.1, 0.01][i % 6],
      commission: i % 4 === 0 ? 4.04 : 0,
      tags: i % 2 ? ['Scalp'] : [],
      notes: `note ${i}`,
    }));
    expect((await a.client.post('/api/trades/import', { account_id: account.id, trades })).status).toBe(201);
    await a.log.goto();
    await expect.poll(() => a.log.rows.count()).toBe(5);
    const statsOf = async (log: TradeLogPage) =>
      Object.fromEntries(
        await Promise.all(
          ['stat-wins', 'stat-losses', 'stat-be', 'stat-win-rate', 'stat-net-pnl', 'stat-profit-factor', 'stat-trades'].map(
            async (id) => [id, await log.statsPanel.getByTestId(id).innerText()] as const,
          ),
        ),
      );
    await a.log.statsPanel.getByTestId('stat-trades').waitFor();
    const statsA = await statsOf(a.log);
    expect(statsA['stat-trades']).toBe('12');

    const [download] = await Promise.all([a.page.waitForEvent('download'), a.page.getByTestId('export-trades').click()]);
    expect(download.suggestedFilename()).toMatch(/^trades-backup-\d{4}-\d{2}-\d{2}\.json$/);
    await a.log.toast('Trades data exported successfully!').waitFor();
    const file = await download.path();
    const backup = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown[];
    expect(backup).toHaveLength(12);

    // The other trader imports the file through the Trade Log's import dialog.
    const b = await trader();
    await createAccount(b.client, 'Restored');
    await b.log.goto();
    await expect.poll(() => selectorValue(b.log)).toBe('Restored ★');
    await b.page
      .getByTestId('import-file-input')
      .setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/json', buffer: fs.readFileSync(file) });
    const dialog = b.page.getByTestId('import-dialog');
    await dialog.getByTestId('import-preview').waitFor({ timeout: 30_000 });
    await dialog.getByTestId('import-confirm').click();
    await b.log.toast(/Trades imported successfully/).waitFor({ timeout: 30_000 });
    await expect.poll(() => b.log.statsPanel.getByTestId('stat-trades').innerText()).toBe('12');
    expect(await statsOf(b.log)).toEqual(statsA);

    // Same trades, row for row, in the maximized table.
    const rowsOf = async (page: Page) => {
      await page.getByTestId('toggle-maximize').click();
      await expect.poll(() => page.getByTestId('trade-row').count()).toBe(12);
      const texts = await page.getByTestId('trade-row').allInnerTexts();
      await page.getByTestId('toggle-maximize').click();
      return texts.map((t) => t.replace(/\s+/g, ' ').trim());
    };
    expect(await rowsOf(b.page)).toEqual(await rowsOf(a.page));
  });
});
