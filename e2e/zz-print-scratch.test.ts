import path from 'node:path';
import { it } from 'vitest';
import { brokerFile, importFile } from '../tests/api/imports-support';
import { signedInTrader } from './pages/trade-log';
import { useAppTheme, useE2ESuite } from './support/scenario';

const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
it('print and light desktop, dark phone', async () => {
  for (const [width, theme] of [[1440, 'light'], [390, 'dark']] as const) {
    const s = await suite.scenario({ width, height: 900, colorScheme: theme });
    await useAppTheme(s.context, theme);
    const api = await signedInTrader(suite.e2e.app, s.context, 'print');
    const account = (await api.post('/api/accounts', { name: 'Topstep 50K' })).body as { id: string };
    await importFile(api, { account_id: account.id, time_zone: 'America/New_York' }, brokerFile('topstepx-trades/angrybuhda-futures-trading-profile__trades_export.csv'));
    const { page } = s;
    for (const view of ['', '/breakdowns/instrument', '/heatmap', '/calendar', '/distributions', '/compare', '/equity']) {
      await page.goto(`/reports${view}?side=Short&hour=9&hour=10&tag=Direct-Parse`);
      await page.getByRole('heading', { name: 'Reports', level: 1 }).waitFor();
      await page.locator('section[data-money]').first().waitFor();
      await page.waitForTimeout(1500);
      const name = view.replace(/\//g, '-') || '-overview';
      await page.screenshot({ path: path.join('/tmp/reports-shots', `x${name}-${width}-${theme}.png`), fullPage: true });
    }
    if (width === 1440) {
      await page.goto('/reports/breakdowns/hour?range=this-year');
      await page.getByTestId('breakdown-table-row').first().waitFor().catch(() => undefined);
      await page.emulateMedia({ media: 'print' });
      await page.waitForTimeout(800);
      await page.screenshot({ path: '/tmp/reports-shots/print-breakdown.png', fullPage: true });
      await page.emulateMedia({ media: 'screen' });
    }
  }
});
