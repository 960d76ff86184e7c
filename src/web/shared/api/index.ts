export * from './keys';
export * from './types';
export * from './queries';
export * from './attachments';
export * from './pending-deletes';
export * from './risk';
export * from './prop';
export * from './trade-patch';
