import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { addDays, getTodayInZone } from '../src/domain/dates';
import { createTrade, listAll } from '../tests/api/trades-support';
import { ReflectPage } from './pages/reflect';
import { signedInTrader } from './pages/trade-log';
import { SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForAnimations } from './support/scenario';

/**
 * The Reflect page on a server without an AI provider: the AI button says plainly that AI is not
 * configured and how to configure it, and AI Analysis gives the local analysis, computed by Edgebook.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-reflect-no-ai-'));

describe('Reflect without an AI provider', () => {
  it('says AI is not configured and how to configure it, and analyses locally', async () => {
    const s = await suite.scenario();
    const api = await signedInTrader(suite.e2e.app, s.context, 'no-ai');
    await api.post('/api/onboarding');
    const samples = await listAll(api);
    if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
    await createTrade(api, {
      date: getTodayInZone(new Date(), 'America/New_York'),
      symbol: 'NQ',
      trade_type: 'Breakout',
      period: 'AM',
      pnl: '125.50',
    });

    const reflect = new ReflectPage(s.page);
    await reflect.goto();
    await reflect.showing('This Week');
    const hint = s.page.getByTestId('ai-not-configured');
    await hint.waitFor();
    expect(await hint.innerText()).toContain('AI is not configured on this server');
    expect(await hint.innerText()).toContain('AI_BASE_URL');

    await reflect.aiAnalysis.click();
    const dialog = reflect.analysisDialog;
    await dialog.getByTestId('analysis-source').waitFor();
    expect(await dialog.getByTestId('analysis-source').textContent()).toBe('Local analysis');
    const notice = await dialog.getByTestId('analysis-notice').innerText();
    expect(notice).toContain('AI not configured');
    expect(notice).toContain('AI_BASE_URL');
    expect(await dialog.getByTestId('analysis-net-pnl').innerText()).toBe('$125.50');
    expect(await dialog.getByTestId('analysis-patterns').innerText()).toContain('Net P&L $125.50 over 1 trade on 1 trading day');
  });
});

describe('the analysis', () => {
  it.each(SCREEN_PAIRS)(
    "$name, $theme: a group with nothing won or lost has no win rate ('—') in the analysis, not a 0.0 one",
    async ({ name, width, height, theme }) => {
      const s = await suite.scenario({ width, height, colorScheme: theme });
      await useAppTheme(s.context, theme);
      const api = await signedInTrader(suite.e2e.app, s.context, `be-analysis-${name}-${theme}`);
      await api.post('/api/onboarding');
      const samples = await listAll(api);
      if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
      const today = getTodayInZone(new Date(), 'America/New_York');
      await createTrade(api, { date: today, symbol: 'NQ', trade_type: 'Breakout', period: 'AM', pnl: '125.50' });
      // A scratch at lunch, rated as following the rules: its session, its setup and the rules-followed box hold a
      // break-even only.
      const scratch = await createTrade(api, { date: today, symbol: 'YM', trade_type: 'Reversal', period: 'Lunch', pnl: '0' });
      expect((await api.json('PATCH', `/api/reflections/${scratch.id}`, { followed_rules: true })).status).toBe(200);
      // The scratch under a playbook, its one rule ticked (still followed): the By Playbook table's row.
      const playbook = (await api.post('/api/playbooks', { name: 'Lunch fade', rules: [{ text: 'Wait for the first pullback' }] })).body;
      expect(
        (await api.put(`/api/trade-playbooks/${scratch.id}`, { playbook_id: playbook.id, ticked_rule_ids: [playbook.rules[0].id] })).status,
      ).toBe(200);
      // A second scratch: Lunch is the one session with two trades (the analysis's 'Best session') and Reversal the
      // most traded setup, both without a win or a loss. A scratch the week before: the previous weeks have trades
      // but no win rate either.
      await createTrade(api, { date: today, symbol: 'ES', trade_type: 'Reversal', period: 'Lunch', pnl: '0' });
      await createTrade(api, { date: addDays(today, -7), symbol: 'ES', trade_type: 'Reversal', period: 'Lunch', pnl: '0' });

      const reflect = new ReflectPage(s.page);
      await reflect.goto();
      await reflect.showing('This Week');
      await reflect.aiAnalysis.click();
      const dialog = reflect.analysisDialog;
      await dialog.getByTestId('analysis-source').waitFor();
      // With a win the figures are as before.
      expect(await dialog.getByTestId('analysis-win-rate').innerText()).toBe('100.0%');
      // The Summary tab's sentences: the patterns and the comparison with the previous weeks.
      const patterns = await dialog.getByTestId('analysis-patterns').innerText();
      expect(patterns).toContain('Best session: Lunch (2 trades, — win rate, $0.00).');
      expect(patterns).toContain('Most traded setup: Reversal (2 trades, — win rate, $0.00).');
      const comparison = await dialog.getByTestId('analysis-comparison').innerText();
      expect(comparison).toContain('3 trades against an average of 0.3.');
      // Nothing was won or lost in the previous weeks: no win rate to compare with.
      expect(comparison).not.toContain('Win rate');
      expect(await dialog.getByRole('tabpanel').innerText()).not.toMatch(/(^|\s)0\.0%/);
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-analysis-summary-${name}-${theme}.png`) });
      await dialog.getByRole('tab', { name: 'Statistics' }).click();
      const row = (table: string, name: string) => dialog.getByTestId(table).getByRole('row').filter({ hasText: name });
      expect(await row('figures-by-time-of-day', 'AM').innerText()).toMatch(/AM\s+1\s+100\.0%\s+\$125\.50/);
      expect(await row('figures-by-time-of-day', 'Lunch').innerText()).toMatch(/Lunch\s+2\s+—\s+\$0\.00/);
      expect(await row('figures-by-setup', 'Reversal').innerText()).toMatch(/Reversal\s+2\s+—\s+\$0\.00/);
      expect(await dialog.getByTestId('adherence-followed').innerText()).toMatch(/Win rate\s+—/);
      // By Playbook beside rule adherence: trades, win rate, net, expectancy (none without a win or loss), R, rules
      // followed, followed / broken net.
      const byPlaybook = dialog.getByTestId('analysis-playbooks').getByTestId('by-playbook-row');
      expect(await byPlaybook.count()).toBe(1);
      expect(await byPlaybook.innerText()).toMatch(/Lunch fade\s+1\s+—\s+\$0\.00\s+—\s+—\s+100\.0%\s+\$0\.00\s*\/\s*—/);
      // The previous four weeks had one scratch between them.
      const previous = dialog.getByTestId('figures-previous-weeks').getByRole('row');
      await previous.first().waitFor();
      const weeks = (await previous.allInnerTexts()).slice(1);
      for (const r of weeks) expect(r).toMatch(/\s[01]\s+—\s+\$0\.00$/);
      expect(weeks.at(-1)).toMatch(/\s1\s+—\s+\$0\.00$/);
      expect(await dialog.innerText()).not.toMatch(/(^|\s)0\.0%/);
      await waitForAnimations(s.page);
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-analysis-${name}-${theme}.png`) });
      await dialog.getByTestId('analysis-playbooks').scrollIntoViewIfNeeded();
      await s.page.screenshot({ path: path.join(SCREENSHOT_DIR, `finish-analysis-playbooks-${name}-${theme}.png`) });
    },
  );
});
