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
 * Prop-firm accounts in Chromium: the dashboard's Prop Accounts widget (green, amber within 25% of a limit, red
 * failed) and an account's status page (each rule's distance, the moment a rule broke, the timeline, each figure's
 * trades one click away, the rules from a dated template, the ledger; a failed account's page saying so first), at
 * 390 and 1440 px in both themes.
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
    [
      'Combine Near',
      [trade(addDays(today, -3), '795.72', '09:40', '10:05'), trade(today, '-504.28', '09:35', '09:50'), trade(today, '-304.28', '10:10', '10:30')],
    ],
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
      // The kind, and the breach's date with its year.
      expect(await widget.line('Funded Broken').innerText()).toContain(
        `Funded · Broken · Daily loss limit broken on ${formatDay(addDays(today, -2), 'MMM d, yyyy')}`,
      );
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
    await api(client, 'POST', `/api/prop/accounts/${ids['Combine Near']}/ledger`, {
      kind: 'evaluation-fee',
      amount: '49',
      occurred_on: '2026-03-02',
    });
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
    const account = await api<{ id: string }>(client, 'POST', '/api/accounts', {
      name: 'New Combine',
      kind: 'evaluation',
      firm: 'Topstep',
      size: 50000,
      starting_balance: 50000,
    });

    const status = new PropAccountPage(s.page);
    await s.page.goto(`/prop/${account.id}`);
    await status.ready();
    expect(await status.text('prop-no-rules')).toContain('No rules yet');
    await status.editRules();
    await status.chooseTemplate('Topstep Trading Combine 50K');
    // Which figures Topstep's own pages gave and which only reviews did: no check of the firm's page is claimed that
    // was not made (the template used to say every figure was checked on help.topstep.com).
    const source = await status.text('prop-template-source');
    expect(source).toMatch(
      /^Figures read on \d{4}-\d{2}-\d{2}\. Read in third-party reviews \(confirm with your firm\): Profit target, Maximum loss limit, Consistency, Position size, Trading hours\./,
    );
    expect(source).toContain("The firm's own terms are authoritative");
    expect(source).toContain('propfirmapp.com (a review, read ');
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'rules-editor-desktop-dark.png') });
    // The trader's plan says $3,500: edited here, kept with the template it came from.
    await status.rulesEditor.getByRole('textbox', { name: 'Target profit' }).fill('3500');
    await status.saveRules();
    await eventually(() => status.ruleKeys()).toEqual(['profitTarget', 'maxLoss', 'consistency', 'maxPosition', 'tradingHours']);
    expect(await status.ruleFigure('maxLoss')).toBe('$2,000.00 left');
    expect(await status.ruleFigure('profitTarget')).toBe('$3,500.00 to go');
    expect(await status.text('prop-plan')).toMatch(
      /Rules from the Topstep Trading Combine 50K template, figures read on \d{4}-\d{2}-\d{2}, 5 of 5 read in third-party reviews: confirm them with your firm/,
    );
    const stored = await api<{ rule_set: { template_id: string; rules: PropRuleSet } }>(client, 'GET', `/api/prop/accounts/${account.id}`);
    expect(stored.rule_set).toMatchObject({
      template_id: 'topstep-combine-50k',
      rules: { profitTargetCents: 350_000, maxLoss: { amountCents: 200_000, trailing: 'end-of-day', lockAboveStartCents: 0 } },
    });

    await status.addLedgerEntry('Evaluation fee', '49');
    await status.addLedgerEntry('Payout', '1200');
    await eventually(() => status.text('prop-roi-account')).toContain('+$1,151.00');
    expect(await status.text('prop-roi-account')).toContain('+2348.98% ROI');
    expect(await status.text('prop-roi-total')).toContain('$1,200.00 paid out − $49.00 spent');
  });
});

describe('a failed account', () => {
  it.each([
    { width: 390, height: 844, theme: 'light' as const },
    { width: 390, height: 844, theme: 'dark' as const },
    { width: 1440, height: 900, theme: 'dark' as const },
    { width: 1440, height: 900, theme: 'light' as const },
  ])(
    '$width px, $theme: the page says the failure first, its goals are missed (not "to go"), the breach is marked in its day row and on the chart, every column shows',
    async ({ width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const client = await signedInTrader(suite.e2e.app, s.context, `prop-failed-${width}-${theme}`);
      const today = marketDayOf(Date.now(), { rule: 'exchange' }).tradingDay;
      const account = await api<{ id: string }>(client, 'POST', '/api/accounts', {
        name: 'Failed Combine',
        kind: 'evaluation',
        firm: 'Topstep',
        size: 50000,
        starting_balance: 50000,
      });
      await api(client, 'PUT', `/api/prop/accounts/${account.id}/rules`, { rules: { ...RULES, maxPosition: { contracts: 5 } } });
      // +$374.80 three days ago ($2,625.20 short of the target); two days ago -$704.28 and -$454.28: -$1,158.56 at 11:20.
      await api(client, 'POST', '/api/trades/import', {
        account_id: account.id,
        trades: [
          trade(addDays(today, -3), '374.80', '09:40', '10:05'),
          trade(addDays(today, -2), '-704.28', '09:35', '09:55'),
          trade(addDays(today, -2), '-454.28', '11:00', '11:20'),
        ],
      });

      const status = new PropAccountPage(s.page);
      await s.page.goto(`/prop/${account.id}`);
      await status.ready();
      expect(await status.text('prop-state')).toBe('Broken');
      // No second "Broken" beside the badge: the alert says which rule, and when.
      expect(await s.page.getByTestId('prop-outcome').count()).toBe(0);
      expect(await status.text('prop-broken')).toContain(`Daily loss limit broken on ${status.longDay(addDays(today, -2))} at 11:20`);
      // The failure comes first, before the page's other notes and figures.
      expect(await status.precedes('prop-broken', 'prop-basis')).toBe(true);
      expect(await status.precedes('prop-broken', 'prop-balance')).toBe(true);

      // The target it never reached is missed: no "Not yet" and no distance to go under a failed account.
      expect(await status.ruleState('profitTarget')).toBe('missed');
      expect(await status.rule('profitTarget').getByTestId('prop-rule-figure').count()).toBe(0);
      expect(await status.rule('profitTarget').innerText()).toContain(
        `Not met before the account failed on ${formatDay(addDays(today, -2), 'MMM d, yyyy')}`,
      );
      expect(await s.page.getByTestId('prop-account-page').innerText()).not.toContain('to go');
      expect(await status.rule('dailyLoss').getByTestId('prop-rule-severity').innerText()).toBe('Hard: fails the account');
      expect(await status.rule('maxPosition').getByTestId('prop-rule-severity').innerText()).toBe('Soft: costs the trade');

      // The breach's day row: marked, with the day's worst point (its low at the breach), not only its close.
      await status.chart.waitFor();
      const rows = await status.dayRows();
      expect(rows).toHaveLength(2);
      const breachRow = status.dayRow(addDays(today, -2));
      expect(await breachRow.getAttribute('data-breach')).toBe('hard');
      expect(await breachRow.getByTestId('prop-day-breach').innerText()).toBe('Broken: Daily loss limit');
      expect(await status.cell(breachRow, 'Worst point')).toBe('-$1,158.56');
      expect(await status.cell(breachRow, 'Daily limit room at worst')).toBe('-$158.56');
      // On the chart, a dashed line at the trade that broke it.
      await eventually(() => s.page.getByTestId('prop-timeline').locator('text').filter({ hasText: 'Broken: Daily loss limit' }).count()).toBe(1);
      // The axis on round values.
      const ticks = await status.axisTicks();
      expect(ticks.length).toBeGreaterThan(2);
      for (const tick of ticks) expect(tick, `axis tick ${tick}`).toMatch(/^\$\d{1,3}(,\d{3})*$/);

      // Every column of the day table is on the screen, at 390 px too.
      const box = await breachRow.boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      for (const cell of await breachRow.locator('td').all()) {
        const cellBox = await cell.boundingBox();
        expect(cellBox, 'a day-table cell is laid out').not.toBeNull();
        expect(cellBox!.x + cellBox!.width).toBeLessThanOrEqual(width);
        expect(cellBox!.height).toBeGreaterThan(0);
      }
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `failed-${width}-${theme}.png`), fullPage: true });
    },
  );

  it('passed with a soft breach: the page and the widget give one verdict, the day it passed and the target reached', async () => {
    const s = await suite.scenario({ width: 1440, height: 900, colorScheme: 'dark' });
    await useAppTheme(s.context, 'dark');
    const client = await signedInTrader(suite.e2e.app, s.context, 'prop-passed-soft');
    const today = marketDayOf(Date.now(), { rule: 'exchange' }).tradingDay;
    const account = await api<{ id: string }>(client, 'POST', '/api/accounts', {
      name: 'Passed Combine',
      kind: 'evaluation',
      firm: 'Topstep',
      size: 50000,
      starting_balance: 50000,
    });
    await api(client, 'PUT', `/api/prop/accounts/${account.id}/rules`, {
      rules: { ...RULES, profitTargetCents: 100_000, maxPosition: { contracts: 5 } },
    });
    await api(client, 'POST', '/api/trades/import', {
      account_id: account.id,
      trades: [trade(addDays(today, -2), '604.28', '09:40', '10:05'), { ...trade(addDays(today, -1), '504.28', '10:00', '10:20'), quantity: '6' }],
    });
    const passedOn = formatDay(addDays(today, -1), 'MMM d, yyyy');

    const status = new PropAccountPage(s.page);
    await s.page.goto(`/prop/${account.id}`);
    await status.ready();
    expect(await status.text('prop-passed')).toBe(`Passed on ${passedOn}: target and rules met, 1 soft breach`);
    expect(await status.text('prop-outcome')).toBe(`Passed on ${passedOn}`);
    expect(await status.text('prop-milestones')).toBe(`Target reached on ${passedOn}; passed on ${passedOn}.`);
    expect(await status.dayRow(addDays(today, -1)).getAttribute('data-breach')).toBe('soft');
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'passed-soft-desktop-dark.png'), fullPage: true });

    const widget = new PropAccountsWidget(s.page);
    await s.page.goto('/');
    await widget.addToDashboard();
    await eventually(() => widget.line('Passed Combine').innerText()).toContain(
      `Evaluation · On track · Passed on ${passedOn}: target and rules met, 1 soft breach`,
    );
  });
});
