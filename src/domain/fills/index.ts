/**
 * Fills and the round trips they make, by one FIFO rule whatever their source: a broker's file (the importers), a
 * connection to a broker's API, or the fills a trader types on a manual trade.
 */
export type * from './types';
export { buildTrades, type BuildTradesOptions, type BuildTradesResult } from './build-trades';
export { dayOfImportedTrade, importTags, resultOf, type DecorateOptions } from './decorate';
export { ImportKeyAllocator } from './import-key';
export { roundTripFromFills, type FillInput, type RoundTrip, type RoundTripResult } from './round-trip';
