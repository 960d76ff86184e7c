export * from './drafts';
