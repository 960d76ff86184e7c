import type { TradeAggregate, TradeStatsSummary, WeekResult, WeekdayResult, DailyAggregate } from '../../../domain/stats';

/** Shapes of the JSON API (src/server/features/*). Money is an exact decimal string, e.g. "-12.50". */
export interface TradingAccount {
  id: string;
  name: string;
  description: string | null;
  is_default: boolean;
  created_at: string;
  updated_at: string;
}

export interface Trade {
  id: string;
  account_id: string | null;
  account_name: string | null;
  trade_date: string;
  /** yyyy-MM-dd */
  date: string;
  day_of_week: string;
  symbol: string;
  period: string;
  trade_type: string;
  status: 'Win' | 'Loss' | 'BE';
  /** Net of commission. */
  pnl: string;
  /** Absolute. */
  commission: string;
  link: string;
  notes: string;
  tags: string[];
  side: string | null;
  contract: string | null;
  entry_time: string | null;
  exit_time: string | null;
  entry_price: string | null;
  exit_price: string | null;
  quantity: string | null;
  gross_pnl: string | null;
  import_source: string | null;
  created_at: string;
  updated_at: string;
}

export interface TradePage {
  trades: Trade[];
  next_cursor: string | null;
  total: number;
}

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
