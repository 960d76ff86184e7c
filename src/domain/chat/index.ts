export * from './time-range';
export * from './keywords';
export * from './context';
export * from './titles';
export * from './sessions';
export * from './figures';
export * from './api';
export * from './basis';
