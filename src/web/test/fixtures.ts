import type { AppConfig } from '../lib/app-config';
import type { Preferences, Trade, TradePreferences, TradingAccount } from '../shared/api';

/** A trader in New York who files imported trades under the exchange's trading day. */
export const PREFERENCES: Preferences = {
  theme: 'light',
  time_zone: 'America/New_York',
  widgets: null,
  layout: null,
  stats_widgets_order: null,
  quick_note: '',
  trading_day: 'exchange',
  onboarded: true,
};

export const TRADE_PREFERENCES: TradePreferences = {
  trade_type: ['A/A+', 'B', 'C'],
  session: ['AM', 'PM', 'Overnight'],
  tag: ['FOMO', 'Revenge'],
};

export function makeAccount(overrides: Partial<TradingAccount> & Pick<TradingAccount, 'id' | 'name'>): TradingAccount {
  return {
    description: null,
    is_default: false,
    kind: 'personal',
    size: null,
    starting_balance: '0.00',
    firm: null,
    currency: 'USD',
    created_at: '2025-01-02T15:00:00.000Z',
    updated_at: '2025-01-02T15:00:00.000Z',
    ...overrides,
  };
}

/** A stored trade as GET /api/trades gives it: an NQ win of $125 net, $4.28 fees, no execution. */
export function makeTrade(overrides: Partial<Trade> = {}): Trade {
  return {
    id: '11111111-1111-4111-8111-111111111111',
    account_id: null,
    account_name: null,
    trade_date: '2025-03-03T14:35:00.000Z',
    date: '2025-03-03',
    day_of_week: 'Monday',
    symbol: 'NQ',
    period: 'AM',
    trade_type: 'A/A+',
    status: 'Win',
    pnl: '125.00',
    commission: '4.28',
    link: '',
    notes: '',
    tags: [],
    side: null,
    contract: null,
    entry_time: null,
    exit_time: null,
    entry_price: null,
    exit_price: null,
    quantity: null,
    gross_pnl: null,
    funding: null,
    import_source: null,
    stop_price: null,
    risk_amount: null,
    target_price: null,
    planned_risk: null,
    r_multiple: null,
    mae: null,
    mfe: null,
    mae_r: null,
    mfe_r: null,
    excursion_missing: null,
    created_at: '2025-03-03T15:00:00.000Z',
    updated_at: '2025-03-03T15:00:00.000Z',
    ...overrides,
  };
}

/** A server with an AI provider and no captcha or single sign-on. */
export const APP_CONFIG: AppConfig = {
  emailVerification: false,
  googleSignIn: false,
  oidc: null,
  captcha: null,
  tutorialVideoUrls: null,
  links: { community: 'https://community.example.test', social: 'https://social.example.test', support: 'help@example.test' },
  ai: { configured: true, model: 'test-model', reasoningModel: null },
};
