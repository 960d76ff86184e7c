/**
 * Market time: the market clock's zone, the sessions, the trading day and when a market is closed. Importers, trades,
 * market data, connections and prop rules take them from here; every zone conversion underneath is the one clock's
 * (domain/dates/clock.ts).
 */
export * from './market-zone';
export * from './sessions';
export * from './trading-day';
export * from './hours';
