import fs from 'node:fs';
import path from 'node:path';

/**
 * PGlite is a single-process database: two servers on one data directory would both open it without an error
 * and silently diverge. The first server writes its pid into `edgebook.lock`; a second one finds
 * that process alive and refuses to start. A lock left by a crashed process is taken over.
 */
export interface DataDirLock {
  file: string;
  release(): void;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dir: string,
    readonly pid: number,
  ) {
    super(
      `The data directory ${dir} is in use by another Edgebook server (pid ${pid}). ` +
        'Stop that server first, or start this one with a different DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dir: string): DataDirLock {
  const file = path.join(dir, 'edgebook.lock');
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, String(process.pid), { flag: 'wx' });
      let released = false;
      return {
        file,
        release() {
          if (released) return;
          released = true;
          try {
            if (fs.readFileSync(file, 'utf8') === String(process.pid)) fs.unlinkSync(file);
          } catch {
            // already gone
          }
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number.parseInt(fs.readFileSync(file, 'utf8'), 10);
      if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) throw new DataDirLockedError(dir, pid);
      fs.rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dir}`);
}
