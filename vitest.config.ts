import { defineConfig } from 'vitest/config';

// Three suites, one command each: domain (pure, fast), api (real server over HTTP, PGlite and PostgreSQL),
// e2e (real Chromium against a real server). `npm test` runs them in that order.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['src/domain/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'e2e',
          include: ['e2e/**/*.test.ts'],
          // A browser on 2 shared cores needs more than expect.poll's default second.
          expect: { poll: { timeout: 15_000, interval: 100 } },
          globalSetup: ['e2e/support/global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
