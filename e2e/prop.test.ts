import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, formatDay, formatShortDay } from '../src/domain/dates';
import { marketDayOf } from '../src/domain/market-time';
import { wallClockToInstant } from '../src/domain/dates/clock';
import { EMPTY_RULE_SET, type PropRuleSet } from '../src/domain/prop/types';
import type { ApiClient } from '../tests/support/app';
import { PropAccountPage, PropAccountsWidget } from './pages/prop';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Prop-firm accounts in Chromium (issue 28): the dashboard's Prop Accounts widget (green, amber within 25% of a limit,
 * red broken) and an account's status page (each rule's distance, the moment a rule broke, the timeline, each
 * figure's trades one click away, the rules from a dated template, the ledger), at 390 and 1440 px in both themes.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-prop-'));

async function api<T = any>(client: ApiClient, method: string, pathname: string, body?: unknown): Promise<T> {
  const res = await client.json(method, pathname, body);
  expect(res.status, `${method} ${pathname}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

const RULES: PropRuleSet = {
  ...EMPTY_RULE_SET,
  profitTargetCents: 300_000,
  dailyLoss: { limitCents: 100_000, onBreach: 'fail', check: 'intraday' },
  maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 },
};

/** A closed NQ trade of a trading day, at a New York wall-clock time; the P&L net of its $4.28 of fees. */
const trade = (day: string, pnl: string, entry: string, exit: string) => ({
  date: day,
  period: 'AM',
  symbol: 'NQ',
  contract: 'NQH6',
  quantity: '1',
  side: 'Long',
  pnl,
  commission: '4.28',
  entry_time: newYork(day, entry),
  exit_time: newYork(day, exit),
});

/** The instant of a New York wall-clock time on a day (daylight saving or not). */
const newYork = (day: string, time: string) => new Date(wallClockToInstant(Date.parse(`${day}T${time}:00Z`), 'America/New_York')).toISOString();

/**
 * Three 50K accounts: one $200 from today's daily loss limit (amber), one that broke it two days ago (red), one on
 * track (green). Today is the server's current exchange trading day, as the status reads it.
 */
async function seedThreeAccounts(client: ApiClient) {
  const today = marketDayOf(Date.now(), { rule: 'exchange' }).tradingDay;
  const made: Record<string, string> = {};
  for (const [name, trades] of [
    ['Combine Near', [trade(addDays(today, -3), '795.72', '09:40', '10:05'), trade(today, '-504.28', '09:35', '09:50'), trade(today, '-304.28', '10:10', '10:30')]],
    ['Funded Broken', [trade(addDays(today, -2), '-704.28', '09:35', '09:55'), trade(addDays(today, -2), '-454.28', '11:00', '11:20')]],
    ['Apex Fresh', [trade(addDays(today, -1), '645.72', '13:05', '13:45')]],
  ] as const) {
    const account = await api<{ id: string }>(client, 'POST', '/api/accounts', {
      name,
      kind: name.startsWith('Funded') ? 'funded' : 'evaluation',
      firm: name.startsWith('Apex') ? 'Apex Trader Funding' : 'Topstep',
      size: 50000,
      starting_balance: 50000,
    });
    await api(client, 'PUT', `/api/prop/accounts/${account.id}/rules`, { rules: RULES });
    await api(client, 'POST', '/api/trades/import', { account_id: account.id, trades });
    made[name] = account.id;
  }
  return { today, ids: made };
}

describe('prop accounts', () => {
  it.each(SCREEN_PAIRS)(
    '$name, $theme: the widget shows each account green, amber or red; the status page gives every distance and the trades behind it',
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const client = await signedInTrader(suite.e2e.app, s.context, `prop-${name}`);
      const { today, ids } = await seedThreeAccounts(client);

      const widget = new PropAccountsWidget(s.page);
      await s.page.goto('/');
      await widget.addToDashboard();
      // The accounts' order: the default (the first made) first, then by name.
      await eventually(() => widget.lineStates()).toEqual([
        ['Combine Near', 'near'],
        ['Apex Fresh', 'ok'],
        ['Funded Broken', 'broken'],
      ]);
      expect(await widget.line('Combine Near').innerText()).toContain('Near · Daily loss: $191.44 left');
      expect(await widget.line('Funded Broken').innerText()).toContain(`Broken · Daily loss limit broken on ${formatShortDay(addDays(today, -2))}`);
      expect(await widget.line('Apex Fresh').innerText()).toContain('$50,645.72');
      // The dashboard opens on the default account: its balance from its own $50,000. All Trades' starts from the three
      // accounts' $150,000, not one $10,000: -$12.84 - $1,158.56 + $645.72 since.
      await eventually(() => s.page.getByTestId('balance-value').innerText()).toBe('$49,987.16');
      await s.page.getByTestId('account-selector').click();
      await s.page.getByRole('option', { name: 'All Trades' }).click();
      await eventually(() => s.page.getByTestId('balance-value').innerText()).toBe('$149,474.32');
      await widget.root.scrollIntoViewIfNeeded();
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `widget-${name}-${theme}.png`), fullPage: false });

      // The amber account: $808.56 of today's $1,000 gone, $191.44 left.
      await widget.open('Combine Near');
      const status = new PropAccountPage(s.page);
      await status.ready();
      expect(await status.text('prop-state')).toBe('Near a limit');
      expect(await status.text('prop-balance')).toContain('$49,987.16');
      expect(await status.ruleFigure('dailyLoss')).toBe('$191.44 left');
      expect(await status.ruleState('dailyLoss')).toBe('near');
      expect(await status.ruleFigure('profitTarget')).toBe('$3,012.84 to go');
      expect(await status.text('prop-basis')).toContain('From the realized P&L of closed trades only');
      expect(await status.text('prop-plan')).toContain("The firm's own terms are authoritative.");
      await status.chart.waitFor();
      expect(await status.dayRows()).toHaveLength(2);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `status-${name}-${theme}.png`), fullPage: true });

      // The daily loss limit's trades: today's two, in trading order; the Trade Log link names the account and day.
      await status.openRuleTrades('dailyLoss');
      await eventually(() => status.drawerTrades()).toEqual(['-$504.28', '-$304.28']);
      expect(await status.drawer.getByRole('link', { name: 'Open in Trade Log' }).getAttribute('href')).toBe(
        `/trade-log?account=${ids['Combine Near']}&from=${today}&to=${today}`,
      );
      // One click on: the Trade Log on that account and day only (3 trades in the account, 2 that day).
      await status.drawer.getByRole('link', { name: 'Open in Trade Log' }).click();
      await waitForPath(s.page, '/trade-log');
      await eventually(() => s.page.getByTestId('trades-total').innerText()).toBe('2 trades');
      // The account went to the selector; the day stays in the address as the Reports' filter, with its banner.
      expect(await s.page.getByTestId('trade-log-filter').innerText()).toContain(formatDay(today, 'MMM d, yyyy'));
      expect(new URL(s.page.url()).searchParams.has('account')).toBe(false);
      await s.page.getByTestId('trade-log-filter-clear').click();
      await eventually(() => s.page.getByTestId('trades-total').innerText()).toBe('3 trades');

      // The red account: the rule, the day and the New York time it broke, and the trade that broke it.
      await s.page.goto(`/prop/${ids['Funded Broken']}`);
      await status.ready();
      expect(await status.text('prop-state')).toBe('Broken');
      const broken = await status.text('prop-broken');
      expect(broken).toContain(`Daily loss limit broken on ${status.longDay(addDays(today, -2))} at 11:20`);
      expect(broken).toContain("Day's net -$1,158.56 reached the daily loss limit of -$1,000.00");
      await s.page.getByRole('button', { name: "Its day's trades" }).click();
      await eventually(() => status.highlighted()).toEqual(['-$454.28']);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `broken-${name}-${theme}.png`), fullPage: false });
    },
  );

  it.each([
    { width: 390, height: 844, theme: 'dark' as const },
    { width: 1440, height: 900, theme: 'light' as const },
    { width: 390, height: 844, theme: 'light' as const },
    { width: 1440, height: 900, theme: 'dark' as const },
  ])('$width px, $theme: the widget and the status page have no serious accessibility violations', async ({ width, height, theme }) => {
    const s = await suite.scenario({ width, height, colorScheme: theme });
    await useAppTheme(s.context, theme);
    const client = await signedInTrader(suite.e2e.app, s.context, `prop-axe-${width}-${theme}`);
    const { ids } = await seedThreeAccounts(client);
    await api(client, 'POST', `/api/prop/accounts/${ids['Combine Near']}/ledger`, { kind: 'evaluation-fee', amount: '49', occurred_on: '2026-03-02' });
    const widget = new PropAccountsWidget(s.page);
    await s.page.goto('/');
    await widget.addToDashboard();
    await eventually(() => widget.lineStates().then((l) => l.length)).toBe(3);
    expect(await seriousA11yViolations(s.page)).toEqual([]);
    const status = new PropAccountPage(s.page);
    await s.page.goto(`/prop/${ids['Funded Broken']}`);
    await status.ready();
    await status.chart.waitFor();
    expect(await seriousA11yViolations(s.page)).toEqual([]);
  });

  it('rules from a dated template, edited, and the ledger with its ROI (1440 px, dark)', async () => {
    const s = await suite.scenario({ width: 1440, height: 900, colorScheme: 'dark' });
    await useAppTheme(s.context, 'dark');
    const client = await signedInTrader(suite.e2e.app, s.context, 'prop-rules');
    const account = await api<{ id: string }>(client, 'POST', '/api/accounts', { name: 'New Combine', kind: 'evaluation', firm: 'Topstep', size: 50000, starting_balance: 50000 });

    const status = new PropAccountPage(s.page);
    await s.page.goto(`/prop/${account.id}`);
    await status.ready();
    expect(await status.text('prop-no-rules')).toContain('No rules yet');
    await status.editRules();
    await status.chooseTemplate('Topstep Trading Combine 50K');
    const source = await status.text('prop-template-source');
    expect(source).toMatch(/^Figures checked on \d{4}-\d{2}-\d{2} from help\.topstep\.com\./);
    expect(source).toContain("The firm's own terms are authoritative");
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'rules-editor-desktop-dark.png') });
    // The trader's plan says $3,500: edited here, kept with the template it came from.
    await status.rulesEditor.getByRole('textbox', { name: 'Target profit' }).fill('3500');
    await status.saveRules();
    await eventually(() => status.ruleKeys()).toEqual(['profitTarget', 'maxLoss', 'consistency', 'maxPosition', 'tradingHours']);
    expect(await status.ruleFigure('maxLoss')).toBe('$2,000.00 left');
    expect(await status.ruleFigure('profitTarget')).toBe('$3,500.00 to go');
    expect(await status.text('prop-plan')).toContain('Rules from the Topstep Trading Combine 50K template, figures checked on');
    const stored = await api<{ rule_set: { template_id: string; rules: PropRuleSet } }>(client, 'GET', `/api/prop/accounts/${account.id}`);
    expect(stored.rule_set).toMatchObject({ template_id: 'topstep-combine-50k', rules: { profitTargetCents: 350_000, maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 } } });

    await status.addLedgerEntry('Evaluation fee', '49');
    await status.addLedgerEntry('Payout', '1200');
    await eventually(() => status.text('prop-roi-account')).toContain('+$1,151.00');
    expect(await status.text('prop-roi-account')).toContain('+2348.98% ROI');
    expect(await status.text('prop-roi-total')).toContain('$1,200.00 paid out − $49.00 spent');
  });
});
