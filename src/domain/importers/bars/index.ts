/** Price-bar files: text in, bars per contract out, with every unreadable row by its number. */
export * from './parse-bars';
export * from './read-bar-file';
