import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { importFile, sendFile } from '../tests/api/imports-support';
import { TradeDetailsPage } from './pages/trade-details';
import { signedInTrader, TradeLogPage } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * A trade replayed on its chart as a trader sees it in Chromium: candlesticks of its contract around it,
 * every fill a marker at the bar it happened in, the average entry and exit as lines, its MAE, MFE, best exit and
 * exit analysis, in the trader's zone; bars brought in on the Market Data page (the trader's own: another trader
 * sees none of them), and a manual trade's fills typed on its page. Screens in both themes at 390 and 1440 px are written to
 * SCREENSHOT_DIR (or a temporary directory).
 */
const suite = useE2ESuite();
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-trade-chart-'));

// Wednesday 5 March 2025: 10:00 New York is 15:00 UTC. A long of 2 MNQ scaled in, closed by a sell of 3 whose third
// contract opens a short.
const FILLS_CSV = [
  'filltime,account,symbol,side,qty,fillprice,status,commission,fillid',
  '2025-03-05 10:00:30,ACC1,MNQH5,Buy,1,21000.00,Filled,0.52,F1',
  '2025-03-05 10:01:30,ACC1,MNQH5,Buy,1,20996.00,Filled,0.52,F2',
  '2025-03-05 10:04:10,ACC1,MNQH5,Sell,3,21010.00,Filled,1.56,F3',
  '2025-03-05 10:06:00,ACC1,MNQH5,Buy,1,21008.00,Filled,0.52,F4',
  '',
].join('\n');

const SESSION: Record<string, [number, number, number, number]> = {
  '10:00': [21000, 21003, 20996, 21002],
  '10:01': [21002, 21008, 20994, 21006],
  '10:02': [21006, 21015, 21004, 21012],
  '10:03': [21012, 21013, 21005, 21009],
  '10:04': [21009, 21011, 21007, 21010],
  '10:05': [21010, 21013, 21009, 21012],
  // The buy that closes the short, 10:06:00 at 21008, lies in its bar: bars that contradict a fill are refused.
  '10:06': [21012, 21013, 21007, 21009],
  '10:09': [21012, 21021, 21011, 21020],
};

/** TradingView's export of MNQH5 1-minute bars, 08:30 to 12:00 New York, a gentle drift around the session above. */
function tradingViewBars(): string {
  const lines = ['time,open,high,low,close,Volume'];
  let close = 20990;
  for (let t = Date.UTC(2025, 2, 5, 13, 30); t <= Date.UTC(2025, 2, 5, 17, 0); t += 60_000) {
    const local = new Date(t - 5 * 3_600_000);
    const minute = `${local.getUTCHours()}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const step = ((t / 60_000) % 7) - 3;
    const ohlc = SESSION[minute] ?? [close, Math.max(close, close + step) + 1.25, Math.min(close, close + step) - 1, close + step];
    close = ohlc[3];
    lines.push(`${t / 1000},${ohlc.join(',')},${20 + ((t / 60_000) % 30)}`);
  }
  return `${lines.join('\n')}\n`;
}

const bar = (hour: number, minute: number) => Date.UTC(2025, 2, 5, hour + 5, minute) / 1000;

describe('a trade on its chart', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: markers at their bars, average lines, MAE, MFE and the exit analysis in the trader’s zone; padding changes the window',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const client = await signedInTrader(suite.e2e.app, s.context, 'chart');
      const account = (await client.post('/api/accounts', { name: 'Apex 50k' })).body as { id: string };
      expect((await importFile(client, { account_id: account.id, time_zone: 'America/New_York' }, FILLS_CSV)).body).toMatchObject({ imported: 2 });
      const uploaded = (await sendFile(client, '/api/market/bars', { contract: 'MNQH5' }, tradingViewBars())).body as {
        added: number;
        unchanged: number;
      };
      expect(uploaded.added + uploaded.unchanged, JSON.stringify(uploaded)).toBe(211);
      const long = ((await client.get('/api/trades?limit=10')).body.trades as Array<{ id: string; side: string }>).find((t) => t.side === 'Long')!;

      const details = new TradeDetailsPage(s.page);
      await details.goto(long.id);
      const chart = s.page.getByTestId('trade-chart');
      await eventually(() => chart.getAttribute('data-ready')).toBe('true');
      // Each fill at the bar it happened in: 10:00:30 in the 10:00 bar, 10:01:30 in 10:01, the sell of 10:04:10 in 10:04.
      expect(JSON.parse((await chart.getAttribute('data-markers'))!)).toEqual([
        { time: bar(10, 0), side: 'Buy', text: 'B 1' },
        { time: bar(10, 1), side: 'Buy', text: 'B 1' },
        { time: bar(10, 4), side: 'Sell', text: 'S 2' },
      ]);
      expect(await chart.locator('canvas').count()).toBeGreaterThan(0);
      expect(await s.page.getByTestId('chart-caption').innerText()).toContain('1-minute bars of MNQH5, 30 minutes around the trade, New York time');
      expect(await s.page.getByTestId('excursion-mae-value').innerText()).toBe('-$16.00');
      expect(await s.page.getByTestId('excursion-mae-detail').innerText()).toBe('4 pts · 16 ticks');
      expect(await s.page.getByTestId('excursion-mfe-value').innerText()).toBe('$68.00');
      expect(await s.page.getByTestId('excursion-capture-value').innerText()).toBe('70.6%');
      expect(await s.page.getByTestId('excursion-best-exit-detail').innerText()).toBe('at 21015 · 10:02:00');
      expect(await s.page.getByTestId('excursions-basis').innerText()).toContain(
        'From 1-minute bars (10:00 to 10:04), the first and last counted whole',
      );
      // Closed a minute later: 10:05:10 falls in the 10:05 bar (close 21012): 2 x (21012 - 20998) x $2 = $56, less $2.08 fees.
      const later = s.page.getByTestId('exit-after-row');
      expect(await later.first().innerText()).toMatch(/\+1 min\s+21012\.00\s+\$53\.92\s+\+\$8\.00/);
      // The fills, in New York time.
      expect(await s.page.getByTestId('fill-row').allInnerTexts()).toEqual([
        expect.stringMatching(/^10:00:30\s+Buy\s+1\s+21000\.00\s+\$0\.52$/),
        expect.stringMatching(/^10:01:30\s+Buy\s+1\s+20996\.00\s+\$0\.52$/),
        expect.stringMatching(/^10:04:10\s+Sell\s+2\s+21010\.00\s+\$1\.04$/),
      ]);
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `chart-${name}-${theme}.png`), fullPage: true });
      expect(await seriousA11yViolations(s.page)).toEqual([]);

      // The Trade Log: the trade's MAE and MFE (its row's columns at 1440 px, its card at 390), in R once it has a
      // planned risk of $32: -$16.00 is -0.50R, $68.00 is +2.13R.
      expect((await client.patch(`/api/trades/${long.id}`, { risk_amount: '32' })).status).toBe(200);
      const log = new TradeLogPage(s.page);
      await log.goto();
      const item = log.rows.or(log.cards).and(s.page.locator(`[data-trade-id="${long.id}"]`));
      await item.waitFor();
      expect(await item.getByTestId('trade-mae').innerText()).toMatch(/^-\$16\.00\s+-0\.50R$/);
      expect(await item.getByTestId('trade-mfe').innerText()).toMatch(/^\$68\.00\s+\+2\.13R$/);
      // The table scrolls sideways inside its card: the two columns in the middle of the view, clear of the pinned Actions.
      await item.getByTestId('trade-mae').evaluate((cell) => cell.scrollIntoView({ inline: 'center', block: 'nearest' }));
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `trade-log-${name}-${theme}.png`) });
      // The Trade Log's charts (the win/loss donut) are drawings hidden from screen readers: nothing in them takes the focus.
      expect(await seriousA11yViolations(s.page)).toEqual([]);
      await details.goto(long.id);
      await eventually(() => chart.getAttribute('data-ready')).toBe('true');
      expect(await s.page.getByTestId('excursion-mae-detail').innerText()).toBe('4 pts · 16 ticks · -0.50R');
      expect(await s.page.getByTestId('excursion-best-exit-detail').innerText()).toBe('at 21015 · 10:02:00 · +2.13R');
      await client.patch(`/api/trades/${long.id}`, { risk_amount: null });

      // Two hours around it: the window grows to 08:00 .. 12:04, as many bars as are stored there (from 08:30).
      await s.page.getByTestId('chart-padding').getByText('2h').click();
      await eventually(() => s.page.getByTestId('chart-caption').innerText()).toContain('2 hours around the trade');
      // The chart redraws for the new window: its markers are read once drawn again, not from the drawing before.
      await eventually(async () =>
        (JSON.parse((await chart.getAttribute('data-markers')) ?? 'null') as Array<{ time: number }> | null)?.map((m) => m.time),
      ).toEqual([bar(10, 0), bar(10, 1), bar(10, 4)]);
    },
  );

  it.each(SCREEN_PAIRS)(
    '$name, $theme: bars from the Market Data page (the trader’s own, unseen by another trader), and a manual trade’s fills typed on its page',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const client = await signedInTrader(suite.e2e.app, s.context, 'bars');
      // June's contract: no bars of it are stored yet.
      const trade = (await client.post('/api/trades', { date: '2025-03-05', period: 'AM', symbol: 'MNQM5', pnl: 0 })).body as { id: string };

      // No bars yet: the trade page says which to add and links to the Market Data page.
      const details = new TradeDetailsPage(s.page);
      await details.goto(trade.id);
      await s.page.getByTestId('trade-fills').getByText('No fills yet.', { exact: false }).waitFor();
      await s.page.getByTestId('edit-fills').click();
      const editor = s.page.getByTestId('fills-editor');
      await editor.getByLabel('Fill 1 time').fill('2025-03-05 10:01:20');
      await editor.getByLabel('Fill 1 price').fill('21006');
      await editor.getByLabel('Fill 2 time').fill('2025-03-05 10:03:40');
      await editor.getByLabel('Fill 2 price').fill('abc');
      await editor.getByTestId('save-fills').click();
      expect(await editor.getByTestId('fills-error').innerText()).toBe('Fill 2, price: must be a number with at most 8 decimals');
      await editor.getByLabel('Fill 2 price').fill('21009');
      // Sell first, then buy back: a short.
      await editor.getByLabel('Fill 1 side').getByText('Sell').click();
      await editor.getByLabel('Fill 2 side').getByText('Buy').click();
      await editor.getByTestId('save-fills').click();
      await details.toast('Fills saved').waitFor();
      await eventually(() => details.field('Side').innerText()).toContain('Short');
      expect(await details.field('Entry price').innerText()).toContain('21006.00');
      expect(await details.field('Gross P&L').innerText()).toContain('-$6.00');
      expect(await s.page.getByTestId('fill-row').count()).toBe(2);
      await s.page.getByTestId('chart-empty').waitFor();
      expect(await s.page.getByTestId('chart-empty').innerText()).toContain(
        'No price bars of MNQM5 are stored around this trade (09:31 to 10:33, New York time)',
      );

      await s.page.getByTestId('add-bars').click();
      await s.page.getByTestId('market-data-page').waitFor();
      const chooser = s.page.waitForEvent('filechooser');
      await s.page.getByTestId('import-bars').click();
      await (await chooser).setFiles({ name: 'CME_MINI_MNQM2025, 1.csv', mimeType: 'text/csv', buffer: Buffer.from(tradingViewBars()) });
      const dialog = s.page.getByTestId('bars-dialog');
      expect(await dialog.getByTestId('bars-contract').inputValue()).toBe('MNQM5');
      await dialog.getByTestId('bars-preview').waitFor();
      expect(await dialog.getByTestId('bars-series').innerText()).toContain('211');
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `bars-dialog-${name}-${theme}.png`) });
      await dialog.getByTestId('bars-confirm').click();
      await s.page.getByRole('alert').filter({ hasText: 'Added 211 bars' }).last().waitFor();
      const row = s.page.getByTestId('coverage-row').filter({ hasText: 'MNQM5' });
      await eventually(() => row.count()).toBe(1);
      expect(await row.innerText()).toMatch(/MNQM5\s+Wed, Mar 5, 2025\s+211 × 1-minute\s+08:30 – 12:00\s+211/);
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `market-data-${name}-${theme}.png`), fullPage: true });
      expect(await seriousA11yViolations(s.page)).toEqual([]);

      // Another trader's Market Data page shows none of her bars: neither the contract nor the day she traded.
      const other = await suite.scenario({ width, height, colorScheme: theme });
      await signedInTrader(suite.e2e.app, other.context, 'other');
      await other.page.goto('/market-data');
      await other.page.getByTestId('market-data-page').waitFor();
      await other.page.getByTestId('coverage-empty').waitFor();
      expect(await other.page.getByTestId('coverage-row').count()).toBe(0);
      expect(await other.page.getByTestId('market-data-page').innerText()).not.toContain('MNQM5');

      // Back on the trade: its chart, and its MAE from the bars.
      await details.goto(trade.id);
      await eventually(() => s.page.getByTestId('trade-chart').getAttribute('data-ready')).toBe('true');
      expect(await s.page.getByTestId('excursion-mae-value').innerText()).toBe('-$18.00');

      // The owner deletes her bars of the day.
      await s.page.goto('/market-data');
      await s.page.getByTestId('coverage-row').filter({ hasText: 'MNQM5' }).getByTestId('delete-bars').click();
      await s.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
      await s.page.getByRole('alert').filter({ hasText: 'Deleted 211 bars' }).last().waitFor();
      await eventually(() => s.page.getByTestId('coverage-row').filter({ hasText: 'MNQM5' }).count()).toBe(0);
    },
  );
});
