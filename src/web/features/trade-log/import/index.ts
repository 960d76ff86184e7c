// Broker imports in the Trade Log: the Import button, its preview dialog and the Trade Import Guide.
export { ImportButton, type ImportButtonProps } from './import-button';
export { FeeScheduleButton } from './fee-schedule';
