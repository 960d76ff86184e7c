import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApiClient } from '../tests/support/app';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { useE2ESuite } from './support/scenario';

/**
 * The Trade Log's bulk actions in Chromium: in select mode, Select All takes every trade of the list (more than the
 * five drawn), Edit Selected assigns a playbook to all of them, and the toast's Undo puts each back as it was.
 */

const suite = useE2ESuite();

async function trader(): Promise<{ client: ApiClient; page: Page; log: TradeLogPage }> {
  const s = await suite.scenario();
  const client = await signedInTrader(suite.e2e.app, s.context);
  return { client, page: s.page, log: new TradeLogPage(s.page) };
}

describe('bulk actions in select mode', () => {
  it('assigns a playbook to every trade of the list from select mode, and Undo takes it back', async () => {
    const { client, page, log } = await trader();
    const account = (await client.post('/api/accounts', { name: 'Main', is_default: true })).body as { id: string };
    const created: string[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await client.post('/api/trades', {
        account_id: account.id,
        date: `2025-05-0${i + 1}`,
        period: 'AM',
        symbol: 'MNQ',
        pnl: 10 * i - 20,
      });
      expect(res.status).toBe(201);
      created.push(res.body.id);
    }
    const playbook = (await client.post('/api/playbooks', { name: 'Opening drive', rules: [{ text: 'Wait for the open' }] })).body as { id: string };
    // One trade already follows another playbook, its rule ticked: Undo must give it back with its tick.
    const other = (await client.post('/api/playbooks', { name: 'Failed breakout', rules: [{ text: 'Trap above the high' }] })).body as {
      id: string;
      rules: Array<{ id: string }>;
    };
    expect((await client.put(`/api/trade-playbooks/${created[0]}`, { playbook_id: other.id, ticked_rule_ids: [other.rules[0]!.id] })).status).toBe(
      200,
    );
    const playbooksOf = async () =>
      Promise.all(
        created.map(async (id) => (await client.get(`/api/trade-playbooks/${id}`)).body as { playbook_id: string | null; ticked_rule_ids: string[] }),
      );
    const before = await playbooksOf();

    await log.goto();
    await expect.poll(() => log.rows.count()).toBe(5);
    await page.getByTestId('select-mode').click();
    await page.getByTestId('select-all').click();
    // Every trade of the list, not the five drawn.
    await expect.poll(() => page.getByTestId('edit-selected').innerText()).toBe('Edit Selected (7)');
    await page.getByTestId('edit-selected').click();
    await page.getByRole('menuitem', { name: 'Assign Playbook' }).click();
    const dialog = page.getByRole('dialog', { name: 'Assign Playbook' });
    await dialog.waitFor();
    await dialog.getByTestId('bulk-edit-playbook').click();
    await page.getByRole('option', { name: 'Opening drive' }).click();
    await dialog.getByRole('button', { name: 'Apply to 7 trade(s)' }).click();
    const toast = log.toast('Playbook set on 7 trade(s)');
    await toast.waitFor();
    await dialog.waitFor({ state: 'hidden' });
    expect((await playbooksOf()).map((p) => p.playbook_id)).toEqual(created.map(() => playbook.id));
    // Select mode is left, the selection with it.
    expect(await page.getByTestId('select-mode').innerText()).toBe('Select');

    await toast.getByTestId('toast-undo').click();
    await log.toast('Change undone').waitFor();
    expect(await playbooksOf()).toEqual(before);
  });
});
