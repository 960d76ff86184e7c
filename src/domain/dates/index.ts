export * from './calendar-day';
export * from './time-zone';
export * from './day-query';
export * from './instant';
