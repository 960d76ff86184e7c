export * from './calendar-day';
export * from './time-zone';
