export * from './pnl-calendar';
export * from './group-trades-into-days';
export * from './compact-figures';
