export { SecuritySettings } from './security-settings';
export { DataSettings } from './data-settings';
