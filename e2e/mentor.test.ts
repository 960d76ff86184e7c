import { describe, expect, it } from 'vitest';
import { getStartOfWeekMonday, getTodayInZone } from '../src/domain/dates';
import type { ApiClient } from '../tests/support/app';
import { signedInTrader } from './pages/trade-log';
import { eventually, useE2ESuite, waitForPath } from './support/scenario';

/**
 * A mentor's seat in Chromium: the trader invites a mentor to one account; the mentor, signed in as themselves, opens
 * the link, accepts, sees that account's trade and not the other's, and comments on it; the trader sees the count of
 * new comments in the header and reads the comment on the Mentoring page.
 */

const suite = useE2ESuite();

async function api<T = any>(client: ApiClient, method: string, path: string, body?: unknown): Promise<T> {
  const res = await client.json(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body as T;
}

describe('a mentor', () => {
  it("accepts an invite, sees only the granted account's trades, and their comment reaches the trader", async () => {
    const trader = await suite.scenario();
    const client = await signedInTrader(suite.e2e.app, trader.context, 'mentee');
    const shown = await api<{ id: string }>(client, 'POST', '/api/accounts', { name: 'Evaluation 50K' });
    const hidden = await api<{ id: string }>(client, 'POST', '/api/accounts', { name: 'Personal cash' });
    await api(client, 'POST', '/api/trades', { account_id: shown.id, period: 'AM', date: '2025-03-04', symbol: 'NQ', side: 'Long', pnl: 412.5 });
    await api(client, 'POST', '/api/trades', { account_id: hidden.id, period: 'AM', date: '2025-03-05', symbol: 'CL', side: 'Short', pnl: -90 });
    const grant = await api<{ url: string }>(client, 'POST', '/api/mentor-grants', { email: 'coach@example.com', account_ids: [shown.id] });
    expect(grant.url).toMatch(/\/mentor\/accept#[A-Za-z0-9_-]{43}$/);

    const mentor = await suite.scenario();
    await signedInTrader(suite.e2e.app, mentor.context, 'coach');
    await mentor.page.goto(grant.url);
    await mentor.page.getByRole('button', { name: 'Accept invitation' }).click();
    await eventually(() => new URL(mentor.page.url()).pathname).toMatch(/^\/mentor\/[0-9a-f-]{36}$/);
    const rows = mentor.page.getByTestId('mentor-trade');
    await eventually(() => rows.count()).toBe(1);
    const text = await mentor.page.getByTestId('mentor-trades').innerText();
    expect(text).toContain('NQ');
    expect(text).toContain('$412.50');
    expect(text).not.toContain('CL');
    expect(text).not.toContain('Personal cash');

    await rows.first().getByTestId('mentor-trade-comments').click();
    await mentor.page.getByLabel('Comment on this trade').fill('Good patience before the entry.');
    await mentor.page.getByTestId('mentor-comment-submit').click();
    await eventually(() => rows.first().getByTestId('mentor-trade-comments').innerText()).toBe('1 comment');

    await trader.page.goto('/');
    const count = trader.page.getByTestId('mentor-comments-count');
    await eventually(() => count.innerText()).toContain('1');
    await trader.page.getByRole('link', { name: '1 new comment from your mentors' }).click();
    await waitForPath(trader.page, '/mentor');
    const inbox = trader.page.getByTestId('mentor-inbox');
    await eventually(() => inbox.innerText()).toContain('Good patience before the entry.');
    expect(await inbox.innerText()).toContain('NQ Long, 2025-03-04');
    await trader.page.getByRole('button', { name: 'Mark all as seen' }).click();
    await eventually(() => trader.page.getByTestId('mentor-comment-new').count()).toBe(0);
    await eventually(() => count.count()).toBe(0);

    // Reflect, read only: this week's trade of the shared account, and nothing of the other.
    const monday = getStartOfWeekMonday(getTodayInZone(new Date(), 'America/New_York'));
    await api(client, 'POST', '/api/trades', { account_id: shown.id, period: 'AM', date: monday, symbol: 'ES', side: 'Short', pnl: 120 });
    await api(client, 'POST', '/api/trades', { account_id: hidden.id, period: 'AM', date: monday, symbol: 'RTY', side: 'Long', pnl: 75 });
    await mentor.page.getByRole('tab', { name: 'Reflect' }).click();
    const cards = mentor.page.getByTestId('mentor-reflect').getByTestId('reflection-card');
    await eventually(() => cards.count()).toBe(1);
    expect(await cards.first().getByTestId('reflection-symbol').innerText()).toBe('ES');
    expect(await mentor.page.getByTestId('summary-total-trades').innerText()).toBe('1');
    // Nothing to change: no rating button, no tag to remove.
    expect(await cards.first().getByRole('button').count()).toBe(0);

    // Reports, read only: the shared account's figures ($412.50 + $120.00), none of the other's, nothing to save or share.
    await mentor.page.getByTestId('mentor-tab-reports').click();
    await eventually(() => new URL(mentor.page.url()).pathname).toMatch(/^\/mentor\/[0-9a-f-]{36}\/reports$/);
    const net = mentor.page.getByTestId('figure-netCents').getByTestId('figure-value');
    await eventually(() => net.innerText()).toBe('$532.50');
    expect(await mentor.page.getByTestId('figure-trades').getByTestId('figure-value').innerText()).toBe('2');
    expect(await mentor.page.getByTestId('report-summary').innerText()).toContain('2 trades');
    for (const hidden of ['save-view-open', 'open-in-trade-log', 'share-open']) expect(await mentor.page.getByTestId(hidden).count(), hidden).toBe(0);
    // Another tab draws from the mentor's routes too: this year's calendar has Monday's shared trade alone (the other
    // account traded that day too), told without a link into the trader's own Trade Log.
    await mentor.page.getByTestId('report-tab-calendar').click();
    await eventually(() => new URL(mentor.page.url()).pathname).toMatch(/\/reports\/calendar$/);
    const days = mentor.page.getByTestId('calendar-day');
    await eventually(() => days.count()).toBe(1);
    expect(await days.first().getAttribute('aria-label')).toMatch(/: 1 trade, net .*\$120\.00/);
    expect(await days.first().evaluate((el) => el.tagName)).toBe('SPAN');
  });
});
