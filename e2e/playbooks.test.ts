import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTrade } from '../tests/api/trades-support';
import { signedInTrader } from './pages/trade-log';
import { seriousA11yViolations } from './support/a11y';
import { eventually, SCREEN_PAIRS, useAppTheme, useE2ESuite, waitForPath } from './support/scenario';

/**
 * Playbooks in Chromium: a playbook made with its checklist (a rule added and moved) and an
 * uploaded chart, given to a trade whose rules are ticked on its page, and its report; at 390 and 1440 px in both
 * themes, with axe.
 * Screenshots go to SCREENSHOT_DIR (or a temporary directory).
 */
const SCREENSHOT_DIR = process.env.SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'edgebook-playbooks-'));

/** A chart-like picture for the playbook's image: one of the app's own intro screenshots. */
const CHART = fs.readFileSync(path.resolve(import.meta.dirname, '../src/web/public/intro/trade-log-dark.webp'));

const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));

describe('a playbook with its checklist, ticked on a trade, and its report', () => {
  it.each(SCREEN_PAIRS)('works at %s width in its theme, and axe finds nothing serious', async ({ name, width, height, theme }) => {
    const s = await suite.scenario({ width, height, colorScheme: theme });
    await useAppTheme(s.context, theme);
    const api = await signedInTrader(suite.e2e.app, s.context, 'playbooks');
    // +$300 on $150 risked (+2R), and -$100 without a planned risk.
    const win = await createTrade(api, { date: '2026-03-09', symbol: 'NQ', pnl: 300, risk_amount: 150 });
    const loss = await createTrade(api, { date: '2026-03-10', symbol: 'NQ', pnl: -100 });
    const { page } = s;
    const shot = async (file: string) =>
      page.screenshot({ path: path.join(SCREENSHOT_DIR, `playbooks-${file}-${name}-${theme}.png`), fullPage: true });
    const checkScreen = async (what: string) => {
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} at ${width}`).toBeLessThanOrEqual(width);
      const violations = await seriousA11yViolations(page);
      expect(violations, `${what}: ${violations.join('\n')}`).toEqual([]);
    };

    await page.goto('/playbooks');
    await page.getByRole('heading', { name: 'Playbooks', level: 1 }).waitFor();
    await page.getByTestId('playbooks-empty').waitFor();
    await page.getByTestId('playbook-new').click();
    await page.getByTestId('playbook-name-input').fill('Opening range breakout');
    await page.getByTestId('playbook-criteria-input').fill('A 5-minute close outside the opening range');
    await page.getByTestId('playbook-rule-input').first().fill('Stop under the range');
    await page.getByTestId('playbook-add-rule').click();
    await page.getByTestId('playbook-rule-input').nth(1).fill('Wait for the retest');
    await page.getByTestId('playbook-add-rule').click();
    await page.getByTestId('playbook-rule-input').nth(2).fill('No entry after 11:00');
    // The retest comes first: moved up once.
    await page.getByRole('button', { name: 'Move rule 2 up' }).click();
    await shot('editor');
    await page.getByTestId('playbook-save').click();

    await page.getByTestId('playbook-page').waitFor();
    expect(await page.getByTestId('playbook-title').innerText()).toBe('Opening range breakout');
    expect(await page.getByTestId('playbook-rules').locator('li').allInnerTexts()).toEqual([
      'Wait for the retest',
      'Stop under the range',
      'No entry after 11:00',
    ]);
    const playbookUrl = new URL(page.url()).pathname;
    const playbookId = playbookUrl.split('/').pop()!;

    // A chart of the setup, uploaded on its page, shown there and in its edit dialog.
    const images = page.getByTestId('playbook-images');
    await images.getByTestId('playbook-images-empty').waitFor();
    const chooser = page.waitForEvent('filechooser');
    await images.getByTestId('playbook-images-upload').click();
    await (await chooser).setFiles({ name: 'orb-example.webp', mimeType: 'image/webp', buffer: CHART });
    await eventually(() => images.getByTestId('playbook-images-item').count()).toBe(1);
    await eventually(() =>
      images.locator('img[src^="/api/attachments/files/"]').evaluate((img) => (img as HTMLImageElement).naturalWidth),
    ).toBeGreaterThan(100);
    await page.getByTestId('playbook-edit').click();
    const editor = page.getByRole('dialog', { name: 'Edit playbook' });
    await eventually(() => editor.getByTestId('playbook-editor-images-item').count()).toBe(1);
    await editor.getByRole('button', { name: 'Cancel' }).click();
    await editor.waitFor({ state: 'hidden' });
    const [image] = (await api.get(`/api/attachments?playbook_id=${playbookId}`)).body as Array<{ url: string }>;
    expect((await api.request('GET', image!.url)).status).toBe(200);

    // The winner followed every rule; the loser only the first.
    await page.goto(`/trade/${win.id}`);
    await page.getByTestId('trade-playbook-select').click();
    await page.getByRole('option', { name: 'Opening range breakout' }).click();
    const rules = page.getByTestId('trade-playbook-rule');
    await eventually(() => rules.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      await rules.nth(i).click();
      await eventually(() => page.getByTestId('trade-playbook-status').innerText()).toBe(
        i === 2 ? 'All rules followed' : `${i + 1} of 3 rules followed`,
      );
    }
    await shot('trade');
    await checkScreen('trade page');
    await page.goto(`/trade/${loss.id}`);
    await page.getByTestId('trade-playbook-select').click();
    await page.getByRole('option', { name: 'Opening range breakout' }).click();
    await eventually(() => page.getByTestId('trade-playbook-rule').count()).toBe(3);
    await page.getByTestId('trade-playbook-rule').first().click();
    await eventually(() => page.getByTestId('trade-playbook-status').innerText()).toBe('1 of 3 rules followed');
    // Saved on the server, not only on screen.
    await eventually(async () => (await api.get(`/api/trade-playbooks/${loss.id}`)).body.ticked_rule_ids.length).toBe(1);

    // Its report: 2 trades, 1 win, +$200 net, 4 of 6 rules ticked; followed +$300, broken -$100; R of 1 trade.
    await page.goto(playbookUrl);
    const report = page.getByTestId('playbook-report');
    await report.getByTestId('playbook-trades').waitFor();
    await eventually(() => report.getByTestId('playbook-trades').innerText()).toContain('2');
    expect(await report.getByTestId('playbook-win-rate').innerText()).toContain('50.0%');
    expect(await report.getByTestId('playbook-net').innerText()).toContain('$200.00');
    expect(await report.getByTestId('playbook-expectancy-r').innerText()).toContain('+2.00R');
    expect(await report.getByTestId('playbook-adherence').innerText()).toContain('66.7%');
    expect(await report.getByTestId('playbook-without-risk').innerText()).toContain('1 trade without a planned risk');
    expect(await report.getByTestId('playbook-followed').innerText()).toContain('$300.00');
    expect(await report.getByTestId('playbook-broken').innerText()).toContain('-$100.00');
    await shot('report');
    await checkScreen('playbook page');

    // The list, and By Playbook on the reports.
    await page.goto('/playbooks');
    await page.getByTestId('playbook-card').waitFor();
    expect(await page.getByTestId('playbook-card').innerText()).toMatch(/3 rules[\s\S]*2 trades/);
    await shot('list');
    await checkScreen('playbooks list');
    await page.goto('/reports/playbooks');
    await waitForPath(page, '/reports/playbooks');
    await page.getByTestId('by-playbook-row').waitFor();
    expect(await page.getByTestId('by-playbook-row').innerText()).toContain('Opening range breakout');
    await shot('by-playbook');
    await checkScreen('By Playbook');

    // Delete asks first, then leaves the trades.
    await page.goto(playbookUrl);
    await page.getByTestId('playbook-delete').click();
    await page.getByRole('dialog', { name: 'Delete playbook' }).getByRole('button', { name: 'Delete' }).click();
    await waitForPath(page, '/playbooks');
    await page.getByTestId('playbooks-empty').waitFor();
    expect((await api.get(`/api/trades/${win.id}`)).status).toBe(200);
    // Its image went with it.
    expect((await api.request('GET', image!.url)).status).toBe(404);
  });
});
