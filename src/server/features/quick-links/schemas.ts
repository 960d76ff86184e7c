// The requests live in the shared contract (src/contract/quick-links.ts), imported by the web app and the API tests too.
export { importInput, quickLinkIdParam, quickLinkInput, quickLinkPatch, reorderInput } from '../../../contract/quick-links';
