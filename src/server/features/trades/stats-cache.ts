import type { TradeStats } from '../../../contract/trades';

/**
 * Statistics answers a server process keeps per trader (issue 31 point 2). Each answer is labelled with the trader's
 * trade version (trade_versions, bumped by the trades' triggers in the same transaction as every write, whoever
 * wrote it and from whichever process), and is given again only while the version read in the request's transaction
 * is the same. The version is read before the statistics are computed: an answer computed on newer trades than its
 * label is merely recomputed once more, never given for trades it did not see.
 */
export interface StatsCache {
  get(userId: string, version: number, key: string): TradeStats | undefined;
  set(userId: string, version: number, key: string, value: TradeStats): void;
}

/** Enough for a trader's screens (dashboard, Trade Log, a few filters) without holding a big server's every trader. */
const PER_TRADER = 24;
const TRADERS = 500;

export function createStatsCache(traders = TRADERS, perTrader = PER_TRADER): StatsCache {
  // Maps keep insertion order: re-inserting on use makes the first key the least recently used.
  const byTrader = new Map<string, { version: number; answers: Map<string, TradeStats> }>();
  return {
    get(userId, version, key) {
      const entry = byTrader.get(userId);
      if (!entry || entry.version !== version) return undefined;
      const value = entry.answers.get(key);
      if (value === undefined) return undefined;
      byTrader.delete(userId);
      byTrader.set(userId, entry);
      entry.answers.delete(key);
      entry.answers.set(key, value);
      return value;
    },
    set(userId, version, key, value) {
      let entry = byTrader.get(userId);
      // An answer computed at an older version than the one kept (a slow request) is not worth keeping.
      if (entry && entry.version > version) return;
      if (!entry || entry.version !== version) entry = { version, answers: new Map() };
      byTrader.delete(userId);
      byTrader.set(userId, entry);
      entry.answers.delete(key);
      entry.answers.set(key, value);
      if (entry.answers.size > perTrader) entry.answers.delete(entry.answers.keys().next().value!);
      if (byTrader.size > traders) byTrader.delete(byTrader.keys().next().value!);
    },
  };
}
