import { describe, expect, it } from 'vitest';
import type { OverviewReport } from '../src/contract/reports';
import { formatUsd } from '../src/domain/money';
import { createTrade } from '../tests/api/trades-support';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * The monthly review in Chromium, as a phone in the light theme and a desktop in the dark one: opened from Reports,
 * its figures are the API's for the month, it fits the screen, and printed it leaves out the app's sidebar, top bar,
 * filters and buttons, black on white.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

describe('the monthly review', () => {
  it.each(SCREEN_PAIRS)(
    'opens from Reports at $name width, shows the month the API gives and prints without the app around it',
    async ({ width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const api = await signedInTrader(suite.e2e.app, s.context, 'monthly');
      const trades: Array<[string, string, string, number]> = [
        ['2026-02-27', 'NQ', 'Long', 900],
        ['2026-03-02', 'NQ', 'Long', 410.55],
        ['2026-03-02', 'ES', 'Short', -125.25],
        ['2026-03-03', 'MNQ', 'Long', 220.01],
        ['2026-03-05', 'ES', 'Long', -40.04],
        ['2026-04-01', 'NQ', 'Short', -700],
      ];
      for (const [date, symbol, side, pnl] of trades)
        await createTrade(api, { date, symbol, side, pnl, commission: 2.1, tags: symbol === 'ES' ? ['FOMO'] : [] });
      expect((await api.put('/api/mistake-tags', { tags: ['FOMO'] })).status).toBe(200);
      const month = (await api.get('/api/reports/overview?range=custom&from=2026-03-01&to=2026-03-31')).body as OverviewReport;
      expect(month.overview.trades).toBe(4);
      const { page } = s;

      await page.goto('/reports?symbol=NQ&symbol=ES&symbol=MNQ');
      await page.getByTestId('open-monthly-review').click();
      await waitForPath(page, '/reports/monthly-review');
      await page.getByTestId('review-month').fill('2026-03');
      await eventually(() => new URL(page.url()).searchParams.get('month')).toBe('2026-03');
      // The Reports filter goes with it.
      expect(new URL(page.url()).searchParams.getAll('symbol')).toEqual(['NQ', 'ES', 'MNQ']);
      const card = page.getByTestId('report-monthly-review');
      await card.getByRole('heading', { name: 'Monthly review: March 2026' }).waitFor();
      const figure = (key: string) => card.getByTestId(`review-figure-${key}`).getByTestId('figure-value');
      await eventually(() => figure('netCents').innerText()).toBe(formatUsd(month.overview.netCents));
      expect(await figure('feesCents').innerText()).toBe(formatUsd(month.overview.feesCents));
      expect(await figure('trades').innerText()).toBe(String(month.overview.trades));
      expect(await card.getByTestId('review-day').count()).toBe(month.overview.tradingDays);
      expect(await card.getByTestId('review-mistakes').innerText()).toContain('FOMO');

      // It fits the screen, and reads in this theme.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await page.mouse.move(0, 0);
      const violations = await seriousA11yViolations(page);
      expect(violations, violations.join('\n')).toEqual([]);

      // Printed: the review alone, black on white.
      await page.emulateMedia({ media: 'print' });
      for (const selector of ['.mantine-AppShell-navbar', '.mantine-AppShell-header', '[data-testid="report-tabs-row"]']) {
        expect(await page.locator(selector).first().isVisible(), selector).toBe(false);
      }
      for (const testId of ['review-print', 'open-monthly-review', 'review-month', 'print-report']) {
        expect(await page.getByTestId(testId).isVisible(), testId).toBe(false);
      }
      expect(await card.isVisible()).toBe(true);
      expect(await figure('netCents').evaluate((el) => getComputedStyle(el).color)).toBe('rgb(0, 0, 0)');
      expect(await card.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(255, 255, 255)');
      expect(await card.getByTestId('review-instruments').evaluate((el) => getComputedStyle(el.closest('section')!).breakInside)).toBe('avoid');
      await page.emulateMedia({ media: 'screen' });
      expect(await page.getByTestId('review-print').isVisible()).toBe(true);
    },
  );
});
