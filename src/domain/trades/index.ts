export * from './trade-result';
export * from './money-input';
export * from './trade-form';
export * from './trade-options';
export * from './sessions';
export * from './futures';
export * from './normalize-trade';
export * from './prices';
