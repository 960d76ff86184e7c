// The importers' time-zone arithmetic is the dates module's (Intl alone, memoised): one implementation for both.
export { offsetAt, wallClockOf, wallClockToInstant } from '../dates/wall-clock';
