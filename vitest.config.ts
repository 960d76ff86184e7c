import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// Five suites: domain (pure, fast), server (the server's pure parts), web (components in jsdom, their requests answered by a stand-in API), api (real
// server over HTTP, PGlite and PostgreSQL), e2e (real Chromium against a real server). `npm test` runs them in that
// order, domain, server and web together.
//
// The API files run two at a time, but for these, which time what they test (deadlines, shutdown and latency bounds,
// rate-limit windows) or spawn servers of their own, and run alone after the rest.
const SERIAL_API = [
  'ai-service',
  'cluster',
  'compiled-server',
  'connections-sharing',
  'database-restart',
  'hardening-requests',
  'imports-latency',
  'imports-memory',
  'imports-sharing',
  'process',
  'rate-limit',
  'sessions',
  'shutdown',
  'sign-in-limits',
  'sign-in-limits-steps',
].map((name) => `tests/api/${name}.test.ts`);
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'domain',
          include: ['src/domain/**/*.test.ts'],
          environment: 'node',
          // domain, server and web run together, so they share one worker count (vitest requires it).
          maxWorkers: 2,
        },
      },
      {
        test: {
          // Pure server code tested without a server (the engine's column storage), and the docs' own checks.
          name: 'server',
          include: ['src/server/**/*.test.ts', 'tests/server/**/*.test.ts'],
          environment: 'node',
          // Random rounds by the hundred: seconds of work, more on a busy machine.
          testTimeout: 60_000,
          maxWorkers: 2,
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'web',
          include: ['src/web/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
          setupFiles: ['src/web/test/setup.ts'],
          // Mantine's components in jsdom on 2 shared cores: a dialog's first render takes a while.
          testTimeout: 20_000,
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api',
          include: ['tests/api/**/*.test.ts'],
          exclude: SERIAL_API,
          globalSetup: ['tests/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Two files at a time: each runs its own server, and most of a file's time is waiting on it or on PostgreSQL.
          maxWorkers: 2,
        },
      },
      {
        test: {
          name: 'api-serial',
          include: SERIAL_API,
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
          // One more try for a browser scenario that timed out on a loaded 2-core runner (each scenario signs up a
          // trader of its own, so a second try starts clean). A real defect fails both tries; the report lists any
          // retried test as flaky.
          retry: 1,
        },
      },
    ],
  },
});
