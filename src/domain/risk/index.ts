export * from './planned-risk';
export * from './trade-plan';
export * from './format-r';
export * from './r-summary';
