import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sweepStoppedServersUploads } from './read-upload';

/** A process that ran and has ended: its id names nobody now. */
async function endedPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid!;
}

describe('the uploads of stopped servers', () => {
  const running = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
  afterAll(() => running.kill());

  it("deletes a stopped server's upload folder and keeps a running one's", async () => {
    const dir = (pid: number) => join(tmpdir(), `edgebook-uploads-${pid}`);
    const ended = await endedPid();
    for (const pid of [ended, running.pid!]) {
      fs.mkdirSync(dir(pid), { recursive: true });
      fs.writeFileSync(join(dir(pid), 'upload'), 'symbol,side\n');
    }
    expect(await sweepStoppedServersUploads()).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(dir(ended))).toBe(false);
    expect(fs.readFileSync(join(dir(running.pid!), 'upload'), 'utf8')).toBe('symbol,side\n');
    fs.rmSync(dir(running.pid!), { recursive: true, force: true });
  });
});
