import { describe, expect, it } from 'vitest';
import { makeTrade } from '../../test/fixtures';
import { allSelected, INITIAL_TRADES_PANEL, reduceTradesPanel, type TradesPanelAction, type TradesPanelState } from './trades-panel-state';

const apply = (state: TradesPanelState, ...actions: TradesPanelAction[]) => actions.reduce(reduceTradesPanel, state);
const inSelectMode = apply(INITIAL_TRADES_PANEL, { type: 'toggle-select-mode' });
const ids = (state: TradesPanelState) => [...state.selected].sort();

describe('the Trades panel reducer', () => {
  it('ticks and unticks trades in select mode; leaving select mode forgets them, and so does coming back', () => {
    const ticked = apply(
      inSelectMode,
      { type: 'toggle-selected', id: 'a' },
      { type: 'toggle-selected', id: 'b' },
      { type: 'toggle-selected', id: 'a' },
    );
    expect(ids(ticked)).toEqual(['b']);
    const left = apply(ticked, { type: 'toggle-select-mode' });
    expect(left.selectMode).toBe(false);
    expect(left.selected.size).toBe(0);
    expect(apply(ticked, { type: 'leave-select-mode' })).toMatchObject({ selectMode: false, selected: new Set() });
  });

  it('Select All takes every listed trade, and once all are taken it unselects them', () => {
    const listed = ['a', 'b', 'c'];
    const some = apply(inSelectMode, { type: 'toggle-selected', id: 'b' });
    expect(allSelected(some.selected, listed)).toBe(false);
    const all = apply(some, { type: 'toggle-all', ids: listed });
    expect(ids(all)).toEqual(['a', 'b', 'c']);
    expect(allSelected(all.selected, listed)).toBe(true);
    expect(apply(all, { type: 'toggle-all', ids: listed }).selected.size).toBe(0);
    // An empty list is never 'all selected'.
    expect(allSelected(new Set(), [])).toBe(false);
  });

  it("Select All's ids (the whole filter) are the selection until one is unticked or the selection cleared", () => {
    const all = apply(inSelectMode, { type: 'select-ids', ids: ['a', 'b', 'c', 'd'] });
    expect(ids(all)).toEqual(['a', 'b', 'c', 'd']);
    expect(all.selectedAll).toBe(true);
    const unticked = apply(all, { type: 'toggle-selected', id: 'c' });
    expect(ids(unticked)).toEqual(['a', 'b', 'd']);
    expect(unticked.selectedAll).toBe(false);
    expect(apply(all, { type: 'clear-selection' })).toMatchObject({ selectedAll: false, selected: new Set() });
    expect(apply(all, { type: 'leave-select-mode' }).selectedAll).toBe(false);
    expect(apply(inSelectMode, { type: 'select-ids', ids: [] }).selectedAll).toBe(false);
  });

  it('a trade deleted on its own leaves the selection; a change of what is listed clears it', () => {
    const ticked = apply(inSelectMode, { type: 'toggle-selected', id: 'a' }, { type: 'toggle-selected', id: 'b' });
    expect(ids(apply(ticked, { type: 'forget-trade', id: 'a' }))).toEqual(['b']);
    expect(apply(ticked, { type: 'forget-trade', id: 'zz' })).toBe(ticked);
    const cleared = apply(ticked, { type: 'clear-selection' });
    expect(cleared.selected.size).toBe(0);
    expect(cleared.selectMode).toBe(true);
  });

  it('a header click turns the order over; the sort menu sets it', () => {
    const byPnl = apply(INITIAL_TRADES_PANEL, { type: 'sort', sorting: [{ id: 'pnl', desc: true }] });
    const flipped = apply(byPnl, { type: 'sort', sorting: (old) => old.map((s) => ({ ...s, desc: !s.desc })) });
    expect(flipped.sorting).toEqual([{ id: 'pnl', desc: false }]);
  });

  it('keeps the search as typed, the view chosen, the dialogs and the rows being edited', () => {
    const trade = makeTrade();
    const state = apply(
      INITIAL_TRADES_PANEL,
      { type: 'type-search', search: ' nq ' },
      { type: 'choose-view', view: 'cards' },
      { type: 'edit', trade },
      { type: 'edit-tags', trade },
      { type: 'edit-inline', id: trade.id },
      { type: 'open', dialog: 'risk-defaults' },
      { type: 'export', running: true },
    );
    expect(state).toMatchObject({
      search: ' nq ',
      viewChoice: 'cards',
      editTrade: trade,
      tagsTrade: trade,
      inlineId: trade.id,
      dialog: 'risk-defaults',
      exporting: true,
    });
    expect(apply(state, { type: 'edit', trade: null }, { type: 'edit-inline', id: null }, { type: 'open', dialog: null })).toMatchObject({
      editTrade: null,
      inlineId: null,
      dialog: null,
    });
  });
});
