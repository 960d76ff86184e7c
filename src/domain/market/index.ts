/**
 * Market data (issue 29): price bars, what they cover, a trade's MAE, MFE, best exit and exit analysis, and bar files.
 * Pure: bars and trades come in, figures go out; nothing here reads a clock or a database.
 */
export * from './bars';
export * from './coverage';
export * from './excursions';
export * from './parse-bars';
export * from './excursion-summary';
