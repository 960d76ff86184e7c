import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Where uploaded files live: a directory under DATA_DIR by default, behind this small interface
 * so an S3-compatible bucket can replace it. Keys are relative paths `{kind}/{userId}/{file}`, like
 * `avatars/{userId}/avatar-123.jpg`: the owner is always the second segment, so an export or an account deletion
 * finds every file of a trader whatever kinds of upload exist.
 */
export interface FileStorage {
  put(key: string, bytes: Uint8Array): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  remove(key: string): Promise<void>;
  /** Every key `{kind}/{userId}/...` of one owner. */
  listOwned(userId: string): Promise<string[]>;
}

const SAFE_KEY = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_.-]+)*$/;

function checkKey(key: string) {
  if (!SAFE_KEY.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
}

export function createDirectoryStorage(root: string): FileStorage {
  const resolve = (key: string) => {
    checkKey(key);
    return path.join(root, key);
  };
  return {
    async put(key, bytes) {
      const file = resolve(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      await fs.writeFile(file, bytes);
    },
    async get(key) {
      try {
        return new Uint8Array(await fs.readFile(resolve(key)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async remove(key) {
      await fs.rm(resolve(key), { force: true });
    },
    async listOwned(userId) {
      checkKey(userId);
      const kinds = await fs.readdir(root, { withFileTypes: true }).catch(() => []);
      const keys: string[] = [];
      for (const kind of kinds.filter((d) => d.isDirectory())) {
        const dir = path.join(root, kind.name, userId);
        const files = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
        for (const file of files.filter((f) => f.isFile())) {
          keys.push(path.relative(root, path.join(file.parentPath, file.name)).split(path.sep).join('/'));
        }
      }
      return keys.sort();
    },
  };
}

/** For an in-memory database (tests): files vanish with the process, like the data. */
export function createMemoryStorage(): FileStorage {
  const files = new Map<string, Uint8Array>();
  return {
    async put(key, bytes) {
      checkKey(key);
      files.set(key, bytes);
    },
    async get(key) {
      return files.get(key) ?? null;
    },
    async remove(key) {
      files.delete(key);
    },
    async listOwned(userId) {
      return [...files.keys()].filter((key) => key.split('/')[1] === userId).sort();
    },
  };
}
