/**
 * Market data: price bars, what they cover, a trade's MAE, MFE, best exit and exit analysis (bar files are read by
 * importers/bars). Pure: bars and trades come in, figures go out; nothing here reads a clock or a database.
 */
export * from './bars';
export * from './coverage';
export * from './excursions';
export * from './excursion-summary';
export * from './replay';
