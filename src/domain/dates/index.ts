export * from './calendar-day';
export * from './time-zone';
export * from './instant';
