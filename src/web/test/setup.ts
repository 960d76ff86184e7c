import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { notifications } from '@mantine/notifications';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { stubApi } from './stub-api';

// What jsdom lacks and Mantine reads: media queries (none match, so the desktop layout is drawn), element sizes,
// scrolling into view.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  value: (query: string): MediaQueryList =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }) as MediaQueryList,
});
class NoResizeObserver {
  observe() {}
  unobserve() {}
  disconnect() {}
}
window.ResizeObserver ??= NoResizeObserver;
window.HTMLElement.prototype.scrollIntoView ??= () => undefined;
// A text area that grows with its text listens for fonts loading.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined, ready: Promise.resolve() },
  });
}
// Mantine asks for a pseudo-element's style, which jsdom does not implement (it logs an error for each call).
const { getComputedStyle } = window;
window.getComputedStyle = (element: Element) => getComputedStyle(element);

// A dialog's first render with Mantine in jsdom, on 2 shared cores, can take more than Testing Library's default second
// to show what a test waits for.
configure({ asyncUtilTimeout: 5_000 });

// Every request the components make is answered by the handlers of the test; one nobody answers fails the test.
beforeAll(() => stubApi.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  cleanup();
  stubApi.resetHandlers();
  notifications.clean();
  window.localStorage.clear();
});
afterAll(() => stubApi.close());
