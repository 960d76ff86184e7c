export * from './trade-aggregate';
export * from './win-rate';
export * from './profit-factor';
export * from './streaks';
export * from './score';
export * from './results-by-period';
export * from './summarize-trades';
export * from './pnl-series';
