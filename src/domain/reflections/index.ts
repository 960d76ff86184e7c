export * from './period';
export * from './reflection';
export * from './statistics';
export * from './insights';
export * from './comparison';
export * from './local-analysis';
export * from './summary';
export * from './analysis-prompt';
