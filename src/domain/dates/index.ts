export * from './calendar-day';
export * from './clock';
export * from './trade-date';
export * from './day-query';
export * from './instant';
