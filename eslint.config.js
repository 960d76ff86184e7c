import fs from 'node:fs';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const nodeBuiltins = [
  'node:*',
  'fs',
  'path',
  'os',
  'crypto',
  'child_process',
  'net',
  'http',
  'https',
  'url',
  'stream',
  'util',
  'buffer',
  'process',
  'events',
  'worker_threads',
];
const serverOnly = [
  'pg',
  '@electric-sql/pglite',
  'drizzle-orm',
  'drizzle-orm/*',
  'hono',
  'hono/*',
  '@hono/*',
  'nodemailer',
  'pino',
  'better-auth',
  'better-auth/adapters/*',
  'better-auth/plugins',
];
const webOnly = [
  'react',
  'react-dom',
  'react-dom/*',
  'react-router',
  '@mantine/*',
  '@tanstack/*',
  '@tabler/*',
  'better-auth/react',
  'better-auth/client',
];

/** The server's feature folders: each is walled off from the others. */
const serverFeatures = fs
  .readdirSync('src/server/features', { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** src/domain's import rule, with any further patterns a part of the domain must also keep to. */
const domainImports = (...extra) => [
  'error',
  {
    paths: nodeBuiltins.filter((p) => !p.includes('*')).map((name) => ({ name, message: 'src/domain is pure: no Node APIs.' })),
    patterns: [
      { group: ['**/server/**', '**/web/**'], message: 'src/domain must not import server or web code.' },
      { group: ['node:*'], message: 'src/domain is pure: no Node APIs.' },
      { group: [...serverOnly, ...webOnly], message: 'src/domain is pure: no server or browser libraries.' },
      ...extra,
    ],
  },
];

/**
 * The three rooms of the code, checked by a tool: src/domain imports neither server, web, Node nor DOM code;
 * src/web never imports server code. (Domain's own tsconfig has no DOM or Node types, so a stray `window` or
 * `process` also fails the type check.)
 */
export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**', 'src/server/db/migrations/**', 'coverage/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/**/*.test.ts'],
    rules: {
      'no-restricted-imports': domainImports(),
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'localStorage', 'sessionStorage', 'navigator', 'fetch', 'process', 'Buffer', '__dirname', 'require'].map(
          (name) => ({
            name,
            message: 'src/domain is pure: pass what you need in.',
          }),
        ),
      ],
    },
  },
  {
    // One vocabulary: instruments, market time, the clock and the side live in their own domain modules, which the
    // importers use like everyone else. Nothing else in the domain reads the importers (tests may feed sample files
    // through them).
    files: ['src/domain/**/*.ts'],
    ignores: ['src/domain/**/*.test.ts', 'src/domain/importers/**'],
    rules: {
      'no-restricted-imports': domainImports({
        group: ['**/importers', '**/importers/**'],
        message: 'Only src/domain/importers reads files: take instruments, market time, the clock and the side from their own modules.',
      }),
    },
  },
  {
    files: ['src/web/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/server', '!react-dom/server'], message: 'src/web must not import server code: use the HTTP API.' },
            { group: ['node:*', ...serverOnly.filter((p) => p !== 'better-auth')], message: 'src/web runs in the browser: no server libraries.' },
            // The contract's zod schemas would put zod in the browser bundle: the web app takes its types only.
            { group: ['**/contract/**', '**/contract'], allowTypeImports: true, message: 'src/web imports the contract with `import type` only.' },
          ],
        },
      ],
    },
  },
  {
    // The contract is shared by the server, the web app and the tests: zod and src/domain only.
    files: ['src/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', '**/web/**'], message: 'src/contract must not import server or web code.' },
            { group: ['node:*', ...serverOnly, ...webOnly], message: 'src/contract is shared: zod and src/domain only.' },
          ],
        },
      ],
    },
  },
  {
    // Walls inside the server: the core (trades, the engine, the data every feature shares) imports no feature; a
    // feature imports the core, the database, HTTP helpers and the domain, never another feature (a helper two
    // features need moves down into the core or the domain); http/ and db/ import neither. No file imports itself back
    // through a chain of imports.
    files: ['src/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [
        createTypeScriptImportResolver({
          project: ['tsconfig.json', 'src/domain/tsconfig.json', 'src/web/tsconfig.json'],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...serverFeatures.map((feature) => ({
              target: `./src/server/features/${feature}`,
              from: './src/server/features',
              except: [`./${feature}`],
              message: `A feature imports the core and the domain, never another feature: move what both need into src/server/core.`,
            })),
            { target: './src/server/core', from: './src/server/features', message: 'The core imports no feature.' },
            {
              target: './src/server/http',
              from: ['./src/server/features', './src/server/core'],
              message: 'http/ imports no feature and nothing of the core.',
            },
            {
              target: './src/server/db',
              from: ['./src/server/features', './src/server/core', './src/server/http'],
              message: 'db/ is the floor: it imports nothing above it.',
            },
          ],
        },
      ],
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
);
