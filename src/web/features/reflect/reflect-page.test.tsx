import { screen, waitFor } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { APP_CONFIG, makeAccount, PREFERENCES } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { ReflectPage } from './reflect-page';

const MAIN = makeAccount({ id: 'bbbbbbbb-0000-4000-8000-000000000001', name: 'Main' });
const FUNDED = makeAccount({ id: 'bbbbbbbb-0000-4000-8000-000000000002', name: 'Funded', is_default: true });

/** The account of each request for the period's reflections. */
let asked: Array<string | null>;

beforeEach(() => {
  window.sessionStorage.clear();
  asked = [];
  stubApi.use(
    http.get('/api/config', () => HttpResponse.json(APP_CONFIG)),
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/accounts', () => HttpResponse.json([FUNDED, MAIN])),
    http.get('/api/trades/unassigned-count', () => HttpResponse.json({ count: 0 })),
    http.get('/api/reflections', ({ request }) => {
      asked.push(new URL(request.url).searchParams.get('account'));
      // What the page draws of the answer is not this test's: only which account it asked for.
      return HttpResponse.json({ error: 'not here' }, { status: 500 });
    }),
  );
});

describe('Reflect account filter', () => {
  it('opens on the default account as the Trade Log does, and All Trades asks for every account', async () => {
    const { user } = renderWithApp(<ReflectPage />);
    await waitFor(() => expect(asked).toEqual([FUNDED.id]));
    expect(screen.getByRole('combobox', { name: 'Account' })).toHaveValue('Funded ★');
    await user.click(screen.getByRole('combobox', { name: 'Account' }));
    await user.click(await screen.findByRole('option', { name: 'All Trades' }));
    await waitFor(() => expect(asked.at(-1)).toBe('all'));
  });
});
