import { screen, waitFor, within } from '@testing-library/react';
import { http, HttpResponse } from 'msw';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { Trade } from '../../shared/api';
import { makeTrade, PREFERENCES, TRADE_PREFERENCES } from '../../test/fixtures';
import { renderWithApp } from '../../test/render';
import { stubApi } from '../../test/stub-api';
import { TradesPanel } from './trades-panel';

const TRADES: Trade[] = [
  makeTrade({ id: 'aaaaaaaa-0000-4000-8000-000000000001', symbol: 'NQ', date: '2025-03-05', pnl: '250.00' }),
  makeTrade({ id: 'aaaaaaaa-0000-4000-8000-000000000002', symbol: 'ES', date: '2025-03-04', pnl: '-75.50', status: 'Loss' }),
  makeTrade({ id: 'aaaaaaaa-0000-4000-8000-000000000003', symbol: 'MNQ', date: '2025-03-03', pnl: '12.00' }),
];

/** The list queries the panel sent (their query parameters), and the bulk deletes. */
let listed: URLSearchParams[];
let bulkDeleted: unknown[];
/** What Select All's request asked, what the server answers it, and the bulk edits and restores sent. */
let idsAsked: URLSearchParams[];
let filterIds: string[];
let bulkEdits: unknown[];
let restores: unknown[];

beforeEach(() => {
  listed = [];
  bulkDeleted = [];
  idsAsked = [];
  filterIds = TRADES.map((t) => t.id);
  bulkEdits = [];
  restores = [];
  stubApi.use(
    http.get('/api/trades/ids', ({ request }) => {
      idsAsked.push(new URL(request.url).searchParams);
      return HttpResponse.json({ ids: filterIds, total: filterIds.length });
    }),
    http.post('/api/trades/bulk-edit', async ({ request }) => {
      const body = (await request.json()) as { ids: string[] };
      bulkEdits.push(body);
      const before = body.ids.map((id) => ({
        id,
        account_id: null,
        playbook_id: null,
        trade_type: 'Breakout',
        tags: [],
        ticked_rule_ids: [],
        followed_rules: null,
      }));
      return HttpResponse.json({ updated: body.ids.length, skipped_duplicates: [], before });
    }),
    http.post('/api/trades/bulk-restore', async ({ request }) => {
      const body = (await request.json()) as { trades: unknown[] };
      restores.push(body);
      return HttpResponse.json({ restored: body.trades.length });
    }),
    http.get('/api/accounts', () => HttpResponse.json([])),
    http.get('/api/preferences', () => HttpResponse.json(PREFERENCES)),
    http.get('/api/trade-preferences', () => HttpResponse.json(TRADE_PREFERENCES)),
    http.get('/api/playbooks', () => HttpResponse.json([])),
    http.get('/api/trades', ({ request }) => {
      const params = new URL(request.url).searchParams;
      listed.push(params);
      const q = params.get('q')?.toLowerCase();
      const trades = q ? TRADES.filter((t) => t.symbol.toLowerCase().includes(q)) : TRADES;
      // The compact list is the newest few of the trader's twelve trades.
      return HttpResponse.json({ trades, next_cursor: null, total: q ? trades.length : 12 });
    }),
    http.post('/api/trades/bulk-delete', async ({ request }) => {
      bulkDeleted.push(await request.json());
      return HttpResponse.json({ deleted: 2 });
    }),
  );
});

function renderPanel() {
  const onSearchChange = vi.fn();
  const view = renderWithApp(
    <TradesPanel account="all" maximized={false} onToggleMaximized={vi.fn()} onAddTrade={vi.fn()} onSearchChange={onSearchChange} />,
  );
  return { ...view, onSearchChange };
}

const tick = (trade: Trade) => screen.getByRole('checkbox', { name: `Select trade ${trade.symbol} ${trade.date}` });
const button = (name: string | RegExp) => screen.getByRole('button', { name });

describe('TradesPanel', () => {
  it('lists the newest trades and says how many there are in all', async () => {
    renderPanel();
    expect(await screen.findByTestId('trades-footer')).toHaveTextContent('Showing 3 most recent trades. Maximize to see all 12 trades.');
    expect(screen.getByTestId('trades-total')).toHaveTextContent('12 trades');
    expect(listed[0]!.get('account')).toBe('all');
    expect(listed[0]!.get('limit')).toBe('5');
  });

  it('select mode: ticked trades are counted, Select All toggles, and Cancel forgets the selection', async () => {
    const { user } = renderPanel();
    await screen.findByTestId('trades-footer');
    expect(screen.queryByRole('checkbox', { name: /Select trade/ })).not.toBeInTheDocument();
    await user.click(button('Select'));
    await user.click(tick(TRADES[0]!));
    await user.click(tick(TRADES[2]!));
    expect(button('Delete Selected (2)')).toBeEnabled();
    expect(button('Set Risk (2)')).toBeEnabled();
    await user.click(button('Select All'));
    expect(button('Delete Selected (3)')).toBeEnabled();
    await user.click(button('Unselect All'));
    expect(button('Delete Selected')).toBeDisabled();
    await user.click(tick(TRADES[1]!));
    await user.click(button('Cancel'));
    await user.click(button('Select'));
    expect(button('Delete Selected')).toBeDisabled();
    expect(tick(TRADES[1]!)).not.toBeChecked();
  });

  it('Select All selects every trade of the filter, as the server names them, not only the rows drawn', async () => {
    const { user } = renderPanel();
    await screen.findByTestId('trades-footer');
    // Twelve trades in all, three drawn.
    filterIds = Array.from({ length: 12 }, (_, i) => `aaaaaaaa-0000-4000-8000-0000000000${String(i + 1).padStart(2, '0')}`);
    await user.click(button('Select'));
    await user.click(button('Select All'));
    expect(await screen.findByRole('button', { name: 'Delete Selected (12)' })).toBeEnabled();
    expect(idsAsked.at(-1)!.get('account')).toBe('all');
    // A trade unticked by hand: Select All is offered again.
    await user.click(tick(TRADES[0]!));
    expect(button('Delete Selected (11)')).toBeEnabled();
    expect(button('Select All')).toBeInTheDocument();
  });

  it('Edit Selected assigns a playbook to the ticked trades, and Undo sends back their state before', async () => {
    stubApi.use(
      http.get('/api/playbooks', () => HttpResponse.json([{ id: 'bbbbbbbb-0000-4000-8000-000000000001', name: 'Opening drive', rules: [] }])),
    );
    const { user } = renderPanel();
    await screen.findByTestId('trades-footer');
    await user.click(button('Select'));
    await user.click(tick(TRADES[0]!));
    await user.click(tick(TRADES[1]!));
    await user.click(button('Edit Selected (2)'));
    await user.click(await screen.findByRole('menuitem', { name: 'Assign Playbook' }));
    const dialog = await screen.findByRole('dialog', { name: 'Assign Playbook' });
    await user.click(within(dialog).getByTestId('bulk-edit-playbook'));
    await user.click(await screen.findByRole('option', { name: 'Opening drive' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 trade(s)' }));
    expect(await screen.findByText('Playbook set on 2 trade(s)')).toBeInTheDocument();
    expect(bulkEdits).toHaveLength(1);
    const sent = bulkEdits[0] as { ids: string[]; action: unknown };
    expect(sent.ids.sort()).toEqual([TRADES[0]!.id, TRADES[1]!.id]);
    expect(sent.action).toEqual({ kind: 'playbook', playbook_id: 'bbbbbbbb-0000-4000-8000-000000000001' });
    await user.click(screen.getByTestId('toast-undo'));
    await waitFor(() => expect(restores).toHaveLength(1));
    expect((restores[0] as { trades: Array<{ id: string }> }).trades.map((t) => t.id).sort()).toEqual([TRADES[0]!.id, TRADES[1]!.id]);
    expect(await screen.findByText('Change undone')).toBeInTheDocument();
  });

  it('Delete Selected asks first, then deletes exactly the ticked trades and leaves select mode', async () => {
    const { user } = renderPanel();
    await screen.findByTestId('trades-footer');
    await user.click(button('Select'));
    await user.click(tick(TRADES[0]!));
    await user.click(tick(TRADES[1]!));
    await user.click(button('Delete Selected (2)'));
    const dialog = screen.getByRole('dialog', { name: 'Delete Selected' });
    expect(dialog).toHaveTextContent('Delete selected trades? This action cannot be undone. It will permanently delete 2 trade(s).');
    expect(bulkDeleted).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Deleted selected trades')).toBeInTheDocument();
    expect(bulkDeleted).toHaveLength(1);
    expect((bulkDeleted[0] as { ids: string[] }).ids.sort()).toEqual([TRADES[0]!.id, TRADES[1]!.id]);
    expect(button('Select')).toBeInTheDocument();
  });

  it('a search asks the server after the typing pause, clears the selection and says when nothing matches', async () => {
    const { user, onSearchChange } = renderPanel();
    await screen.findByTestId('trades-footer');
    await user.click(button('Select'));
    await user.click(tick(TRADES[0]!));
    await user.type(screen.getByRole('textbox', { name: 'Search trades' }), ' es ');
    await waitFor(() => expect(listed.some((p) => p.get('q') === 'es')).toBe(true));
    // Only the paused search went to the server, trimmed, not every keystroke.
    expect(listed.filter((p) => p.has('q')).map((p) => p.get('q'))).toEqual(['es']);
    expect(onSearchChange).toHaveBeenLastCalledWith('es');
    await waitFor(() => expect(button('Delete Selected')).toBeDisabled());
    expect(await screen.findByTestId('trades-total')).toHaveTextContent('1 trade');

    await user.clear(screen.getByRole('textbox', { name: 'Search trades' }));
    await user.type(screen.getByRole('textbox', { name: 'Search trades' }), 'CL');
    expect(await screen.findByText('No trades match your search')).toBeInTheDocument();
  });

  it('the card view sorts from a menu, and the server is asked for that order', async () => {
    const { user } = renderPanel();
    await screen.findByTestId('trades-footer');
    await user.click(screen.getByText('Card view'));
    await user.click(await screen.findByRole('button', { name: 'Sort: Trading order' }));
    await user.click(await screen.findByRole('menuitem', { name: 'PnL' }));
    await waitFor(() => expect(listed.some((p) => p.get('sort') === 'pnl' && p.get('dir') === 'desc')).toBe(true));
    expect(await screen.findByRole('button', { name: 'Sort: PnL, descending' })).toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByTestId('trades-footer')).toHaveTextContent('Showing 3 trades sorted by PnL. Maximize to see all 12 trades.'),
    );
  });
});

describe("TradesPanel: the import's tags", () => {
  const IMPORTED = makeTrade({
    id: 'aaaaaaaa-0000-4000-8000-000000000011',
    symbol: 'MNQ',
    period: 'AM',
    side: 'Long',
    import_source: 'tradovate-csv',
    tags: ['Imported', 'Direct-Parse', 'Winner', 'MNQ', 'AM', 'Long', 'High-Impact', 'fomo', 'A+'],
  });
  // Typed by hand: its tags are the trader's whatever their names.
  const TYPED = makeTrade({ id: 'aaaaaaaa-0000-4000-8000-000000000012', symbol: 'ES', date: '2025-03-02', tags: ['Winner', 'plan'] });
  const tagsOf = (symbol: string) =>
    within(screen.getAllByTestId('trade-row').find((row) => within(row).queryByText(symbol, { exact: true }))!)
      .getByTestId('trade-tags')
      .querySelectorAll('span');
  const shown = (symbol: string) => [...tagsOf(symbol)].map((tag) => tag.textContent);

  beforeEach(() => {
    stubApi.use(http.get('/api/trades', () => HttpResponse.json({ trades: [IMPORTED, TYPED], next_cursor: null, total: 2 })));
  });

  it('hides the tags imports added from the list when the trader turns them off, and this browser remembers it', async () => {
    const first = renderPanel();
    await screen.findAllByTestId('trade-row');
    // All of them at first: the import's two first, then how many more.
    expect(shown('MNQ')).toEqual(['Imported', 'Direct-Parse', '+7']);

    await first.user.click(button('Columns'));
    await first.user.click(await screen.findByRole('checkbox', { name: 'Show import tags' }));
    await waitFor(() => expect(shown('MNQ')).toEqual(['fomo', 'A+']));
    expect(shown('ES')).toEqual(['Winner', 'plan']);
    expect(window.localStorage.getItem('trade-log-hide-import-tags')).toBe('true');

    // A new visit in this browser: still only the trader's own.
    first.unmount();
    renderPanel();
    await screen.findAllByTestId('trade-row');
    expect(shown('MNQ')).toEqual(['fomo', 'A+']);
  });

  it('offers the same choice in the card view, from its sort menu', async () => {
    const { user } = renderPanel();
    await screen.findAllByTestId('trade-row');
    await user.click(screen.getByText('Card view'));
    const card = () => screen.getAllByTestId('trade-card').find((c) => within(c).queryByText('MNQ', { exact: true }))!;
    // Three tags in a card, then how many more.
    await waitFor(() => expect(within(card()).getByTestId('trade-tags')).toHaveTextContent(/^ImportedDirect-ParseWinner\+6$/));
    await user.click(await screen.findByRole('button', { name: 'Sort: Trading order' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Hide import tags' }));
    await waitFor(() => expect(within(card()).getByTestId('trade-tags')).toHaveTextContent(/^fomoA\+$/));
    expect(window.localStorage.getItem('trade-log-hide-import-tags')).toBe('true');
    // The menu stays open, its item now bringing them back.
    await user.click(screen.getByRole('menuitem', { name: 'Show import tags' }));
    await waitFor(() => expect(within(card()).getByTestId('trade-tags')).toHaveTextContent(/^ImportedDirect-ParseWinner\+6$/));
    expect(window.localStorage.getItem('trade-log-hide-import-tags')).toBe('false');
  });
});
