export * from './types';
export * from './evaluate';
export * from './position';
export * from './hours';
export * from './ledger';
export * from './templates';
export * from './labels';
