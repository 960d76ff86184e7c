import { spotlight } from '@mantine/spotlight';
import { act, screen } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { Route, Routes, useLocation } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeAccount, PREFERENCES } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { SearchPalette } from './search-palette';

const PLAYBOOK_ID = '5b0c7f6e-3d1a-4c2b-9e8f-0a1b2c3d4e5f';
const PROP_ID = '7c1d8a2f-4e5b-4d3c-8a9b-1c2d3e4f5a6b';

beforeEach(() => {
  stubApi.use(
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/quick-links', () => HttpResponse.json([])),
    http.get('/api/accounts', () =>
      HttpResponse.json([
        makeAccount({ id: 'acc-personal', name: 'Opening Range cash' }),
        makeAccount({ id: PROP_ID, name: 'Opening Range Apex 50k', kind: 'evaluation', firm: 'Apex' }),
      ]),
    ),
    http.get('/api/playbooks', () => HttpResponse.json([{ id: PLAYBOOK_ID, name: 'Opening Range Breakout' }])),
    http.get('/api/trades', () => HttpResponse.json({ trades: [], next_cursor: null })),
    http.get('/api/notes', () => HttpResponse.json({ notes: [], next_cursor: null })),
  );
});

function Where() {
  return <span data-testid="where">{useLocation().pathname}</span>;
}

function renderPalette() {
  const view = renderWithApp(
    <>
      <SearchPalette onSignOut={() => undefined} />
      <Routes>
        <Route path="*" element={<Where />} />
      </Routes>
    </>,
  );
  act(() => spotlight.open());
  return view;
}

describe('the search palette', () => {
  it('finds the pages the fixed list left out, and opens them', async () => {
    const { user } = renderPalette();
    await user.type(await screen.findByTestId('search-input'), 'market');
    await user.click(await screen.findByTestId('search-page-market-data'));
    expect(screen.getByTestId('where')).toHaveTextContent('/market-data');
  });

  it('finds a playbook and a prop account by name and opens each at its own page; a personal account is not a page', async () => {
    const { user } = renderPalette();
    await user.type(await screen.findByTestId('search-input'), 'opening range');
    const playbook = await screen.findByTestId('search-playbook');
    expect(playbook).toHaveTextContent('Opening Range Breakout');
    const prop = await screen.findByTestId('search-prop-account');
    expect(prop).toHaveTextContent('Opening Range Apex 50k');
    expect(screen.queryByText('Opening Range cash')).not.toBeInTheDocument();
    await user.click(prop);
    expect(screen.getByTestId('where')).toHaveTextContent(`/prop/${PROP_ID}`);

    act(() => spotlight.open());
    await user.clear(await screen.findByTestId('search-input'));
    await user.type(screen.getByTestId('search-input'), 'breakout');
    await user.click(await screen.findByTestId('search-playbook'));
    expect(screen.getByTestId('where')).toHaveTextContent(`/playbooks/${PLAYBOOK_ID}`);
  });
});
