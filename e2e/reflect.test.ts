import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { addDays, getStartOfWeekMonday, getTodayInZone } from '../src/domain/dates';
import type { ApiClient } from '../tests/support/app';
import { aiEnv, startAiServer, type AiServer } from '../tests/support/ai-server';
import { createTrade, listAll } from '../tests/api/trades-support';
import { ReflectPage } from './pages/reflect';
import { SearchPalette } from './pages/search-palette';
import { Shell } from './pages/shell';
import { seriousA11yViolations } from './support/a11y';
import { signedInTrader } from './pages/trade-log';
import { eventually, type Scenario, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * Trade Reflections in Chromium: walking periods, rule adherence and tags kept on the server, an AI analysis
 * end to end against the OpenAI-compatible test server, cancelling one, exporting both files, and the page at phone
 * width in both themes with axe. Screenshots go to SCREENSHOT_DIR (or a temporary directory).
 */

const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-reflect-'));

let provider: AiServer | undefined;
const suite = useE2ESuite(async () => {
  provider = await startAiServer();
  return { env: { ...aiEnv(provider), AI_RATE_LIMIT: '100', AUTH_RATE_LIMIT: '1000' } };
});
afterAll(async () => provider?.close());
const ai = () => provider!;

const GOOD_ANSWER = JSON.stringify({
  summary: { patterns: ['Breakouts in the AM carried your week.'] },
  strengths: ['You waited for the sweep before entering.'],
  weaknesses: ['The PM reversal was a FOMO chase.'],
  suggestions: ['Stop trading reversals after lunch.'],
  actionPlan: ['Trade only AM breakouts tomorrow.', 'Close the platform at 14:00.'],
});

const monday = () => getStartOfWeekMonday(getTodayInZone(new Date(), 'America/New_York'));

/** A trader (browser and API) without the onboarding samples, with this week's three trades and one last week. */
async function traderWithWeek(s: Scenario): Promise<{ api: ApiClient; reflect: ReflectPage }> {
  const api = await signedInTrader(suite.e2e.app, s.context, 'reflect');
  await api.post('/api/onboarding');
  const samples = await listAll(api);
  if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
  const day = (n: number) => addDays(monday(), n);
  // Planned risks: NQ +2R, YM -1R, last week's RTY +2R; ES has none.
  await createTrade(api, {
    date: day(0),
    symbol: 'NQ',
    trade_type: 'Breakout',
    period: 'AM',
    pnl: '300.10',
    risk_amount: '150.05',
    notes: 'Waited for the sweep of the lows',
  });
  await createTrade(api, { date: day(0), symbol: 'ES', trade_type: 'Breakout', period: 'AM', pnl: '100.20' });
  await createTrade(api, {
    date: day(1),
    symbol: 'YM',
    trade_type: 'Reversal',
    period: 'PM',
    pnl: '-200.05',
    risk_amount: '200.05',
    tags: ['FOMO'],
    notes: 'chased',
  });
  await createTrade(api, { date: addDays(monday(), -3), symbol: 'RTY', trade_type: 'Breakout', period: 'AM', pnl: '50', risk_amount: '25' });
  return { api, reflect: new ReflectPage(s.page) };
}

describe('walking periods', () => {
  it('starts on This Week, walks back and forth with next disabled at the present, and a tab resets the offset', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    expect(await reflect.tab('Week').getAttribute('aria-selected')).toBe('true');
    expect(await reflect.cards.count()).toBe(3);
    expect(await reflect.next.isDisabled()).toBe(true);
    expect(await reflect.summaryCard.getByTestId('summary-total-trades').innerText()).toBe('3');
    expect(await reflect.summaryCard.getByTestId('summary-win-rate').innerText()).toBe('66.7%');
    expect(await reflect.summaryCard.getByTestId('summary-rule-adherence').innerText()).toBe('—');
    // Grouped by date, newest first, each day with its P&L.
    const days = await s.page.getByTestId('reflection-day').getByRole('heading').allInnerTexts();
    expect(days).toHaveLength(2);
    expect(days[0]).toMatch(/^Tuesday, /);
    expect(await s.page.getByTestId('top-tags').innerText()).toContain('Breakout (2)');
    expect(await s.page.getByTestId('insight-fomo').innerText()).toContain('FOMO is tagged on 1 trade');

    await reflect.previous.click();
    await reflect.showing('Last Week');
    expect(await reflect.cards.count()).toBe(1);
    expect(await reflect.next.isDisabled()).toBe(false);
    await reflect.previous.click();
    await reflect.showing('2 weeks ago');
    expect(await reflect.empty.innerText()).toBe('No trades found for this period. Add trades in the Trade Log.');
    expect(await s.page.getByTestId('tags-analysis').innerText()).toContain('No tags found for this period');
    await reflect.next.click();
    await reflect.showing('Last Week');

    await reflect.tab('Day').click();
    await reflect.showing('Today');
    expect(await reflect.next.isDisabled()).toBe(true);
    await reflect.previous.click();
    await reflect.showing('Yesterday');
    await reflect.tab('Month').click();
    await reflect.showing('This Month');
  });

  it('asks for trades before Summarize or AI Analysis of an empty period', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    await reflect.previous.click();
    await reflect.previous.click();
    await reflect.showing('2 weeks ago');
    await reflect.summarize.click();
    await reflect.toast('Add some trades first to use the summarize feature.').filter({ hasText: 'No trades to analyze' }).waitFor();
    await reflect.aiAnalysis.click();
    await reflect.toast('Add some trades first to use the AI analysis feature.').waitFor();
    expect(ai().completions().length).toBe(0);
  });
});

describe('rule adherence and tags', () => {
  it('cycles adherence, keeps it after a reload and in a second browser, and a removed tag stays removed', async () => {
    const s = await suite.scenario();
    const { api, reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    const nq = reflect.card('NQ');
    const toggle = nq.getByTestId('rule-adherence');
    expect(await toggle.innerText()).toBe('Rules not rated');
    await toggle.click();
    await eventually(() => toggle.innerText()).toBe('Followed rules');
    await eventually(() => reflect.summaryCard.getByTestId('summary-rule-adherence').innerText()).toBe('100.0%');
    const ym = reflect.card('YM').getByTestId('rule-adherence');
    await ym.click();
    await eventually(() => ym.innerText()).toBe('Followed rules');
    await ym.click();
    await eventually(() => ym.innerText()).toBe('Broke rules');
    await eventually(() => reflect.summaryCard.getByTestId('summary-rule-adherence').innerText()).toBe('50.0%');
    await s.page.getByTestId('insight-rules-broken').waitFor();

    await nq.getByRole('button', { name: 'Remove tag Sweep' }).click();
    await eventually(() => nq.getByTestId('reflection-tag').allInnerTexts()).toEqual(['Breakout', 'AM']);

    // Stored on the server: the API sees it, a reload sees it, another browser profile sees it.
    await eventually(async () => {
      const page = (await api.get('/api/reflections?period=week')).body;
      return page.reflections.map((r: { symbol: string; followedRules: boolean | null }) => `${r.symbol}:${r.followedRules}`).sort();
    }).toEqual(['ES:null', 'NQ:true', 'YM:false']);
    await s.page.reload();
    await reflect.showing('This Week');
    expect(await reflect.card('NQ').getByTestId('rule-adherence').innerText()).toBe('Followed rules');
    expect(await reflect.card('NQ').getByTestId('reflection-tag').allInnerTexts()).toEqual(['Breakout', 'AM']);

    const second = await suite.scenario();
    await second.context.addCookies(await s.context.cookies());
    const other = new ReflectPage(second.page);
    await other.goto();
    await other.showing('This Week');
    expect(await other.card('YM').getByTestId('rule-adherence').innerText()).toBe('Broke rules');
  });

  it('puts the old value back, visibly, when the server refuses a change', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    await s.page.route('**/api/reflections/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Internal server error"}' })
        : route.continue(),
    );
    const toggle = reflect.card('ES').getByTestId('rule-adherence');
    await toggle.click();
    await reflect.toast('Failed to save reflection').waitFor();
    await eventually(() => toggle.innerText()).toBe('Rules not rated');
  });
});

describe('AI analysis', () => {
  it('runs an analysis end to end, shows our figures in four tabs, and exports it as JSON and text', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    ai().clear();
    ai().reply({ chunks: GOOD_ANSWER.match(/.{1,40}/g)!, delayMs: 40 });
    await reflect.aiAnalysis.click();
    const dialog = reflect.analysisDialog;
    await dialog.getByTestId('analysis-progress').waitFor();
    await dialog.getByTestId('analysis-source').filter({ hasText: 'AI analyst' }).waitFor({ timeout: 30_000 });
    expect(await dialog.getByTestId('analysis-total-trades').innerText()).toBe('3');
    expect(await dialog.getByTestId('analysis-win-rate').innerText()).toBe('66.7%');
    expect(await dialog.getByTestId('analysis-net-pnl').innerText()).toBe('$200.25');
    expect(await dialog.getByTestId('analysis-patterns').innerText()).toContain('Breakouts in the AM carried your week.');
    await dialog.getByRole('tab', { name: 'Insights' }).click();
    expect(await dialog.getByTestId('analysis-weaknesses').innerText()).toContain('The PM reversal was a FOMO chase.');
    await dialog.getByRole('tab', { name: 'Statistics' }).click();
    expect(await dialog.getByTestId('figures-by-time-of-day').innerText()).toMatch(/AM\s+2\s+100\.0%\s+\$400\.30/);
    await dialog.getByRole('tab', { name: 'Action Plan' }).click();
    expect(await dialog.getByTestId('analysis-action-plan').getByRole('listitem').allInnerTexts()).toEqual([
      'Trade only AM breakouts tomorrow.',
      'Close the platform at 14:00.',
    ]);
    await waitForAnimations(s.page);
    await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, 'reflect-analysis-desktop-dark.png') });

    const from = monday();
    for (const [item, ext] of [
      ['Export as JSON', 'json'],
      ['Export as text', 'txt'],
    ] as const) {
      await dialog.getByTestId('analysis-export').click();
      const [download] = await Promise.all([s.page.waitForEvent('download'), s.page.getByRole('menuitem', { name: item }).click()]);
      expect(download.suggestedFilename()).toBe(`edgebook-analysis-week-${from}.${ext}`);
      const file = path.join(SCREENSHOT_DIR, download.suggestedFilename());
      await download.saveAs(file);
      const content = fs.readFileSync(file, 'utf8');
      if (ext === 'json') {
        const report = JSON.parse(content);
        expect(report.analysis.summary).toMatchObject({ totalTrades: 3, winRate: 66.7 });
        expect(report.source).toBe('ai');
      } else {
        expect(content).toContain('ACTION PLAN\n- Trade only AM breakouts tomorrow.');
        expect(content).toContain('- AM: 2 trades, 100.0% win rate, $400.30');
      }
    }
    await s.page.keyboard.press('Escape');
    // The AI Insight tile now carries the analyst's first suggestion.
    await eventually(() => reflect.summaryCard.getByTestId('summary-ai-insight').innerText()).toBe('Stop trading reversals after lunch.');
  });

  it('cancels a running analysis when the dialog closes, upstream too', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    ai().clear();
    ai().reply({ text: GOOD_ANSWER, delayMs: 1_000 });
    await reflect.aiAnalysis.click();
    await ai().waitForRequests(1);
    await reflect.analysisDialog.getByRole('button', { name: 'Cancel' }).click();
    await reflect.toast('Analysis Cancelled').waitFor();
    await ai().waitForAbort(0);
    await reflect.analysisDialog.waitFor({ state: 'hidden' });
  });

  it('falls back to the local analysis with the spec’s Connection Error when the provider fails', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    ai().clear();
    ai().reply({ status: 500 }, { status: 500 });
    await reflect.aiAnalysis.click();
    await reflect
      .toast('Unable to connect to the AI analysis server. Using local analysis instead.')
      .filter({ hasText: 'Connection Error' })
      .waitFor();
    const dialog = reflect.analysisDialog;
    expect(await dialog.getByTestId('analysis-source').textContent()).toBe('Local analysis');
    expect(await dialog.getByTestId('analysis-notice').innerText()).toContain('Error connecting to AI API (500). Please try again later.');
    expect(await dialog.getByTestId('analysis-patterns').innerText()).toContain('Net P&L $200.25 over 3 trades on 2 trading days');
  });

  it('opens the analysis from /reflect?action=analyze and from the search palette', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    ai().clear();
    ai().reply({ text: GOOD_ANSWER }, { text: GOOD_ANSWER });
    await reflect.goto('?action=analyze');
    await reflect.analysisDialog.getByTestId('analysis-source').waitFor();
    await s.page.keyboard.press('Escape');
    await reflect.analysisDialog.waitFor({ state: 'hidden' });
    expect(new URL(s.page.url()).search).toBe('');

    await new Shell(s.page).goto('/trade-log');
    const palette = new SearchPalette(s.page);
    await palette.openWithShortcut();
    await palette.search('AI Trade');
    await palette.entry('ai-trade-analysis').click();
    await reflect.analysisDialog.getByTestId('analysis-source').waitFor();
  });

  it('summarizes the period in a dialog with our figures', async () => {
    const s = await suite.scenario();
    const { reflect } = await traderWithWeek(s);
    await reflect.goto();
    await reflect.showing('This Week');
    await reflect.summarize.click();
    const headline = s.page.getByTestId('summary-headline');
    await headline.waitFor();
    expect(await headline.innerText()).toBe('This Week: 3 trades, net $200.25');
    expect(await s.page.getByTestId('summary-lines').innerText()).toContain('Worst trade: YM Reversal');
  });
});

describe('screens', () => {
  for (const colorScheme of ['dark', 'light'] as const) {
    for (const [name, width, height] of [
      ['desktop', 1440, 900],
      ['phone', 390, 844],
    ] as const) {
      it(`${name} in ${colorScheme}: no serious axe violations, nothing wider than the screen`, async () => {
        const s = await suite.scenario({ width, height, colorScheme });
        await useAppTheme(s.context, colorScheme);
        const { reflect } = await traderWithWeek(s);
        await reflect.goto();
        await reflect.showing('This Week');
        await reflect.card('YM').getByTestId('rule-adherence').click();
        await waitForAnimations(s.page);
        expect(await s.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
        const violations = await seriousA11yViolations(s.page);
        expect(violations, violations.join('\n')).toEqual([]);
        await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-${name}-${colorScheme}.png`), fullPage: true });

        // The analysis in R: the previous weeks and rule adherence in R, never dollars under the R switch.
        ai().reply({ text: GOOD_ANSWER });
        await reflect.aiAnalysis.click();
        const dialog = reflect.analysisDialog;
        await dialog.getByTestId('analysis-source').waitFor({ timeout: 30_000 });
        await dialog.getByTestId('figure-unit').getByText('R', { exact: true }).click();
        // +2R - 1R this week; ES has no planned risk.
        await eventually(() => dialog.getByTestId('analysis-net-pnl').innerText()).toBe('+1.00R');
        expect(await dialog.getByTestId('analysis-comparison').innerText()).toBe(
          'Net +1.00R against an average of +0.50R per week over the previous 4 weeks (+0.50R). This week: 1 trade without a planned risk, left out.',
        );
        await dialog.getByRole('tab', { name: 'Statistics' }).click();
        const previous = dialog.getByTestId('figures-previous-weeks');
        expect(await previous.getByRole('columnheader').last().innerText()).toBe('Total R');
        expect(await previous.getByRole('row').last().innerText()).toMatch(/1\s+100\.0%\s+\+2\.00R\s+\+2\.00R a trade/);
        expect(await previous.innerText()).not.toContain('$');
        // YM was marked as following the rules above: -1R.
        expect(await dialog.getByTestId('adherence-followed-r').innerText()).toBe('Total -1.00R (-1.00R a trade)');
        await waitForAnimations(s.page);
        await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `reflect-analysis-r-${name}-${colorScheme}.png`) });
        const inR = await seriousA11yViolations(s.page);
        expect(inR, inR.join('\n')).toEqual([]);
      });
    }
  }
});
