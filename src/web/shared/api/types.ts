/**
 * Shapes of the JSON API. Those with a contract (src/contract, issue 14) are the server's own types, imported as
 * types only so zod stays out of the browser bundle. Money is an exact decimal string, e.g. "-12.50".
 */
export type { TradingAccount } from '../../../contract/accounts';

import type { Trade } from '../../../contract/trades';

export type { Trade, TradePage, TradeStats, TradeAggregate, TradeInputBody } from '../../../contract/trades';
export type { TradePreferences } from '../../../contract/trade-preferences';
export type { Preferences } from '../../../contract/preferences';
export type { Profile } from '../../../contract/profile';
export type { Task, TaskDayStatus } from '../../../contract/tasks';
export type { QuickLink } from '../../../contract/quick-links';

/** Notes layer (GET /api/notes, /api/notes/:id; spec part 2 "Note (screen model)"). Money as decimal strings. */
export interface TagRef {
  id: string;
  name: string;
}

export interface NoteSummary {
  id: string;
  title: string;
  folder_id: string | null;
  trade_id: string | null;
  /** yyyy-MM-dd for a daily-journal note. */
  journal_date: string | null;
  /** From the linked trade, or the journal day's trades. */
  net_pl: string | null;
  stocks_traded: string | null;
  tags: TagRef[];
  created_at: string;
  updated_at: string;
}

export interface Attachment {
  id: string;
  note_id: string | null;
  trade_id: string | null;
  url: string;
  caption: string | null;
  /** Stored by us (served from /api/attachments/files/...), as opposed to an image URL. */
  uploaded: boolean;
  created_at: string;
}

/** Spec part 2 §3 "Trade (read by notebook and journal)". */
export interface NoteTrade {
  id: string;
  symbol: string;
  pnl: string;
  status: string;
  notes: string;
  trade_date: string;
  date: string;
}

export interface Note extends NoteSummary {
  content: string;
  trade: NoteTrade | null;
  attachments: Attachment[];
}

export interface NotePage {
  notes: NoteSummary[];
  next_cursor: string | null;
}

export interface NoteFolder {
  id: string;
  name: string;
  note_count: number;
  created_at: string;
}

export interface JournalDay {
  date: string;
  trades: number;
  pnl: string;
  has_note: boolean;
}

export interface JournalDayDetail {
  date: string;
  pnl: string;
  trades: Array<{ id: string; symbol: string; pnl: string; status: string; period: string; trade_type: string }>;
  note: null | { id: string; title: string; content: string; folder_id: string | null; updated_at: string };
}

export interface TradeDetails {
  trade: Trade;
  /** The older trade just before this one, and the newer one after it. */
  previous_id: string | null;
  next_id: string | null;
  notes: Array<NoteSummary & { content: string }>;
  attachments: Attachment[];
}
