import { setupServer } from 'msw/node';

/**
 * The API as the component tests see it: requests leave the component through fetch or XMLHttpRequest as they do in
 * the browser and are answered here, so a test exercises our own request code rather than a stand-in for it.
 */
export const stubApi = setupServer();
