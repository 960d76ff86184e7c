export * from './task-rules';
export * from './onboarding';
