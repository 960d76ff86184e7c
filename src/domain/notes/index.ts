export * from './folder-color';
export * from './templates';
export * from './journal-days';
export * from './note-text';
export * from './draft-prompt';
