import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { signedInAccount } from './support/accounts';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * TUTORIAL_VIDEO_URLS: the /tutorials player plays hosted copies instead of the recorded ones, from another
 * origin that the Content-Security-Policy lets through (a CSP violation fails the test). The "host" is a local server
 * on another port, serving the recorded files.
 */
const FILES = ['trades-log.webm', 'reflect-page.webm', 'reflectai.webm'];
const served: string[] = [];
let host: http.Server | undefined;
let hostUrl = '';

const suite = useE2ESuite(async () => {
  host = http.createServer((req, res) => {
    const name = path.basename((req.url ?? '').split('?')[0] ?? '');
    if (!FILES.includes(name)) {
      res.writeHead(404).end();
      return;
    }
    served.push(name);
    const body = fs.readFileSync(path.join(import.meta.dirname, '../src/web/public/tutorials', name));
    res.writeHead(200, { 'content-type': 'video/webm', 'content-length': body.length }).end(body);
  });
  await new Promise<void>((resolve) => host!.listen(0, '127.0.0.1', resolve));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}/hosted`;
  return { env: { AUTH_RATE_LIMIT: '1000', TUTORIAL_VIDEO_URLS: FILES.map((f) => `${hostUrl}/${f}`).join(',') } };
});
afterAll(() => new Promise<void>((resolve) => (host ? host.close(() => resolve()) : resolve())));

describe('hosted tutorial videos', () => {
  it('plays each video from the configured URL, in the spec’s order', async () => {
    const { page, context } = await suite.scenario();
    await signedInAccount(suite.e2e.app, context, 'hosted');
    await page.goto('/tutorials');
    const videos = page.getByTestId('tutorial-video');
    await eventually(() => videos.count()).toBe(3);
    for (const [i, id] of (['trades-log', 'reflect-page', 'reflectai'] as const).entries()) {
      const video = page.getByTestId(`tutorial-${id}`).getByTestId('tutorial-video');
      expect(await video.getAttribute('src')).toBe(`${hostUrl}/${FILES[i]}`);
      expect(await video.getAttribute('poster')).toBeNull();
    }
    // The first one plays through, from the host.
    const ended = await videos.first().evaluate(
      (v: HTMLVideoElement) =>
        new Promise<boolean>((resolve, reject) => {
          v.muted = true;
          v.addEventListener('ended', () => resolve(v.ended), { once: true });
          v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
          v.playbackRate = 8;
          void v.play().catch(reject);
        }),
    );
    expect(ended).toBe(true);
    expect(served).toContain('trades-log.webm');
  });
});
