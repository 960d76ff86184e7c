import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import type { TestProject } from 'vitest/node';
import { setup as apiSetup, teardown as apiTeardown } from '../../tests/support/global-setup';

/** The browser tests need the built web app and the same databases as the API tests. */
export async function setup(project: TestProject) {
  const build = spawnSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  if (build.status !== 0) throw new Error('building the web app failed');
  if (!fs.existsSync('/usr/bin/chromium') && !process.env.CHROMIUM_PATH) {
    throw new Error('Chromium not found: apt-get install chromium (or set CHROMIUM_PATH)');
  }
  await apiSetup(project);
}

export const teardown = apiTeardown;
