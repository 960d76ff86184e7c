import { evaluatePropAccount, type EvaluateInput, type PropStatus, type PropTrade } from '../../../domain/prop';

/**
 * Each prop account's trades as the rules read them, kept in this process's memory until the account's trades change
 * (the status of 20 accounts with 100,000 trades in all is wanted within 100 ms). Reading an account's thousands of
 * trades costs tens of milliseconds on PGlite, and the dashboard, the account's page and ReflectAI ask for its status
 * over and over between two writes. `trading_accounts.trades_version` is bumped by triggers in the same transaction as
 * every write of the account's trades, whatever wrote it, so one read of the accounts says which copies are current,
 * in every server process.
 *
 * The evaluation itself is remembered beside the trades, for the rules, start, day and trading-day rule it was made
 * for: the daily loss limit's room is today's, so a new trading day evaluates again.
 *
 * Bounded: beyond MAX_CACHED_TRADES the accounts read longest ago are dropped, and an account not read for IDLE_MS is
 * dropped at the next read of any.
 */
const MAX_CACHED_TRADES = 400_000;
const IDLE_MS = 15 * 60_000;

interface Entry {
  version: number;
  trades: PropTrade[];
  lastUsed: number;
  evaluation: { key: string; status: PropStatus } | null;
}

export class PropTradesCache {
  private readonly entries = new Map<string, Entry>();

  /** The copy of these trades (by account and first counted day) if it is the version asked for. */
  get(key: string, version: number, now = Date.now()): PropTrade[] | null {
    const entry = this.entries.get(key);
    if (!entry || entry.version !== version) return null;
    entry.lastUsed = now;
    return entry.trades;
  }

  set(key: string, version: number, trades: PropTrade[], now = Date.now()) {
    const current = this.entries.get(key);
    // A copy read under an older version never replaces a newer one (two requests racing past a write).
    if (current && current.version > version) return;
    this.entries.set(key, { version, trades, lastUsed: now, evaluation: null });
    this.evict(now);
  }

  /** evaluatePropAccount over the cached trades, made once per version, rules, start, kind and day. */
  evaluate(key: string, version: number, input: EvaluateInput): PropStatus {
    const entry = this.entries.get(key);
    const evaluationKey = JSON.stringify([input.kind, input.startingBalanceCents, input.today, input.tradingDay ?? 'exchange', input.rules]);
    if (entry && entry.version === version && entry.trades === input.trades && entry.evaluation?.key === evaluationKey) {
      return entry.evaluation.status;
    }
    const status = evaluatePropAccount(input);
    if (entry && entry.version === version && entry.trades === input.trades) entry.evaluation = { key: evaluationKey, status };
    return status;
  }

  private evict(now: number) {
    let total = 0;
    for (const [key, entry] of this.entries) {
      if (now - entry.lastUsed > IDLE_MS) this.entries.delete(key);
      else total += entry.trades.length;
    }
    if (total <= MAX_CACHED_TRADES) return;
    const byAge = [...this.entries].sort((a, b) => a[1].lastUsed - b[1].lastUsed);
    for (const [key, entry] of byAge) {
      if (total <= MAX_CACHED_TRADES || this.entries.size === 1) break;
      this.entries.delete(key);
      total -= entry.trades.length;
    }
  }

  /** Accounts and trades held now (for tests and the bench). */
  size() {
    let trades = 0;
    for (const entry of this.entries.values()) trades += entry.trades.length;
    return { accounts: this.entries.size, trades };
  }
}
