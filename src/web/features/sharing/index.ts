export { ShareButton } from './share-button';
export { SharedLinksSettings } from './shared-links-settings';
