import { describe, expect, it } from 'vitest';
import { getTodayInZone } from '../src/domain/dates';
import { createTrade, listAll } from '../tests/api/trades-support';
import { ReflectPage } from './pages/reflect';
import { signedInTrader } from './pages/trade-log';
import { useE2ESuite } from './support/scenario';

/**
 * The Reflect page on a server without an AI provider (issue 8): the AI button says plainly that AI is not
 * configured and how to configure it, and AI Analysis gives the local analysis, computed by Edgebook.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

describe('Reflect without an AI provider', () => {
  it('says AI is not configured and how to configure it, and analyses locally', async () => {
    const s = await suite.scenario();
    const api = await signedInTrader(suite.e2e.app, s.context, 'no-ai');
    await api.post('/api/onboarding');
    const samples = await listAll(api);
    if (samples.length) await api.post('/api/trades/bulk-delete', { ids: samples.map((t) => t.id) });
    await createTrade(api, { date: getTodayInZone(new Date(), 'America/New_York'), symbol: 'NQ', trade_type: 'Breakout', period: 'AM', pnl: '125.50' });

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
