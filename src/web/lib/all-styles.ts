let loading: Promise<unknown> | undefined;

/**
 * Loads the rest of Mantine's styles (../app/all-styles) once; resolves when they apply. The first screens come with
 * their own part of them only (../app/first-screen-styles).
 */
export function loadAllStyles(): Promise<unknown> {
  loading ??= import('../app/all-styles');
  return loading;
}

/** A lazy component's loader that also waits for all of Mantine's styles: what it draws is not on the first screen. */
export function withAllStyles<T>(load: () => Promise<T>): () => Promise<T> {
  return async () => (await Promise.all([load(), loadAllStyles()]))[0];
}
