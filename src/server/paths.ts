import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root (the directory holding Edgebook's package.json), found by walking up from this module, so paths
 * hold both for the sources run through tsx (src/server/...) and for the compiled server (dist/server/main.mjs).
 */
function findPackageRoot(from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && JSON.parse(fs.readFileSync(manifest, 'utf8')).name === 'edgebook') return dir;
    if (path.dirname(dir) === dir) throw new Error(`Edgebook's package.json not found above ${from}`);
  }
}

export const packageRoot = findPackageRoot(path.dirname(fileURLToPath(import.meta.url)));
