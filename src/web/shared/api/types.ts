import type { TradeAggregate, TradeStatsSummary, WeekResult, WeekdayResult, DailyAggregate } from '../../../domain/stats';

/** Shapes of the JSON API (src/server/features/*). Money is an exact decimal string, e.g. "-12.50". */
export type { TradingAccount } from '../../../contract/accounts';

import type { Trade } from '../../../contract/trades';

export type { Trade, TradePage } from '../../../contract/trades';

/** GET /api/trades/stats. JSON has no Infinity: profitFactor arrives as null when there are no losses. */
export interface TradeStats {
  summary: Omit<TradeStatsSummary, 'profitFactor'> & { profitFactor: number | null };
  by_week: WeekResult[];
  by_weekday: WeekdayResult[];
  by_day: DailyAggregate[];
  /** The days of the filter before those in by_day, summed (zeros unless `days` asked for days from a date). */
  by_day_before: TradeAggregate;
}

export type { TradeAggregate };

export interface TradeInputBody {
  account_id?: string | null;
  date?: string;
  symbol?: string;
  period?: string;
  trade_type?: string;
  /** NET of commission (convert the form's before-commission value with toNetPnlCents). */
  pnl?: string | number;
  commission?: string | number;
  link?: string;
  notes?: string;
  tags?: string[];
}

export interface TradePreferences {
  trade_type: string[];
  session: string[];
  tag: string[];
}

export interface Preferences {
  theme: 'dark' | 'light';
  time_zone: string;
  widgets: unknown;
  layout: unknown;
  stats_widgets_order: unknown;
  quick_note: string;
  starting_balance: string;
  /** Imported trades under the exchange's trading day or the calendar day (issue 12). */
  trading_day: 'exchange' | 'calendar';
  onboarded: boolean;
}

export interface Profile {
  display_name: string | null;
  first_name: string | null;
  last_name: string | null;
  profile_picture_url: string | null;
  google_profile_picture_url: string | null;
  user_customized: boolean;
  updated_at: string;
}

export interface Task {
  id: string;
  title: string;
  category: string;
  completed: boolean;
  recurring: boolean;
  task_date: string;
  created_at: string;
}

export interface TaskDayStatus {
  date: string;
  total: number;
  completed: number;
  status: 'profit' | 'breakeven' | 'loss' | 'none';
}

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

export interface QuickLink {
  id: string;
  title: string;
  url: string;
  icon: string | null;
  position: number;
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
