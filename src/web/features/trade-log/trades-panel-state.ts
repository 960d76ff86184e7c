import type { SortingState, Updater } from '@tanstack/react-table';
import type { Trade } from '../../shared/api';
import type { BulkEditKind } from './bulk-edit-dialog';

export type TradesView = 'table' | 'cards';

/** What the Trades panel holds besides the server's trades: the view, search, order, selection and open dialogs. */
export interface TradesPanelState {
  /** The view the trader chose; null follows the screen (cards on a small one). */
  viewChoice: TradesView | null;
  /** The search as typed (the list applies it trimmed, after a pause). */
  search: string;
  sorting: SortingState;
  selectMode: boolean;
  /** The trades ticked in select mode. */
  selected: ReadonlySet<string>;
  /** The selection is Select All's (every trade of the filter), untouched since: the button offers Unselect All. */
  selectedAll: boolean;
  /** The row being edited in place (the maximized table). */
  inlineId: string | null;
  /** The trade in the Edit Trade dialog, and the one whose tags are being edited. */
  editTrade: Trade | null;
  tagsTrade: Trade | null;
  dialog: 'confirm-bulk-delete' | 'bulk-risk' | 'risk-defaults' | null;
  /** The bulk edit whose dialog is open (a playbook, a setup, tags, a move). */
  bulkEdit: BulkEditKind | null;
  exporting: boolean;
}

export type TradesPanelAction =
  | { type: 'choose-view'; view: TradesView }
  | { type: 'type-search'; search: string }
  /** A new order, or how the table turns the current one into it (a header clicked). */
  | { type: 'sort'; sorting: Updater<SortingState> }
  | { type: 'toggle-select-mode' }
  | { type: 'leave-select-mode' }
  | { type: 'toggle-selected'; id: string }
  /** Select All over the listed trades, or Unselect All when every one of them is selected. */
  | { type: 'toggle-all'; ids: readonly string[] }
  /** Select All: every trade of the filter, as the server listed their ids. */
  | { type: 'select-ids'; ids: readonly string[] }
  | { type: 'forget-trade'; id: string }
  /** What is listed changed (account, search, filter, size): a selection of other trades would mislead. */
  | { type: 'clear-selection' }
  | { type: 'edit-inline'; id: string | null }
  | { type: 'edit'; trade: Trade | null }
  | { type: 'edit-tags'; trade: Trade | null }
  | { type: 'open'; dialog: TradesPanelState['dialog'] }
  | { type: 'bulk-edit'; kind: BulkEditKind | null }
  | { type: 'export'; running: boolean };

export const INITIAL_TRADES_PANEL: TradesPanelState = {
  viewChoice: null,
  search: '',
  sorting: [],
  selectMode: false,
  selected: new Set(),
  selectedAll: false,
  inlineId: null,
  editTrade: null,
  tagsTrade: null,
  dialog: null,
  bulkEdit: null,
  exporting: false,
};

const NONE: ReadonlySet<string> = new Set();

/** Whether Select All has nothing left to select (so the button offers Unselect All). */
export const allSelected = (selected: ReadonlySet<string>, ids: readonly string[]) => ids.length > 0 && ids.every((id) => selected.has(id));

export function reduceTradesPanel(state: TradesPanelState, action: TradesPanelAction): TradesPanelState {
  switch (action.type) {
    case 'choose-view':
      return { ...state, viewChoice: action.view };
    case 'type-search':
      return { ...state, search: action.search };
    case 'sort':
      return { ...state, sorting: typeof action.sorting === 'function' ? action.sorting(state.sorting) : action.sorting };
    case 'toggle-select-mode':
      // Leaving select mode clears the selection, and so does entering it.
      return { ...state, selectMode: !state.selectMode, selected: NONE, selectedAll: false };
    case 'leave-select-mode':
      return state.selectMode ? { ...state, selectMode: false, selected: NONE, selectedAll: false } : state;
    case 'toggle-selected': {
      const selected = new Set(state.selected);
      if (selected.has(action.id)) selected.delete(action.id);
      else selected.add(action.id);
      return { ...state, selected, selectedAll: false };
    }
    case 'toggle-all':
      return { ...state, selected: allSelected(state.selected, action.ids) ? NONE : new Set(action.ids), selectedAll: false };
    case 'select-ids':
      return { ...state, selected: new Set(action.ids), selectedAll: action.ids.length > 0 };
    case 'forget-trade': {
      if (!state.selected.has(action.id)) return state;
      const selected = new Set(state.selected);
      selected.delete(action.id);
      return { ...state, selected };
    }
    case 'clear-selection':
      return state.selected.size === 0 ? state : { ...state, selected: NONE, selectedAll: false };
    case 'edit-inline':
      return state.inlineId === action.id ? state : { ...state, inlineId: action.id };
    case 'edit':
      return { ...state, editTrade: action.trade };
    case 'edit-tags':
      return { ...state, tagsTrade: action.trade };
    case 'open':
      return { ...state, dialog: action.dialog };
    case 'bulk-edit':
      return { ...state, bulkEdit: action.kind };
    case 'export':
      return { ...state, exporting: action.running };
  }
}
