/**
 * Instruments: the one table of contracts (point value, tick, the full-size contract a smaller one counts toward,
 * exchange) and the readers of traded symbols. Importers, trades, risk, prop, market data and reports take their
 * instrument vocabulary from here.
 */
export * from './table';
export * from './symbols';
export * from './figures';
export * from './perpetuals';
