import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RECORDED_VIDEOS } from '../src/web/features/tutorials/videos';
import { seriousA11yViolations } from './support/a11y';
import { loggedEmails } from '../tests/support/app';
import { IntroPage } from './pages/auth-pages';
import { createAccount, signedInAccount } from './support/accounts';
import { eventually, useE2ESuite } from './support/scenario';

/**
 * The public pages and the tutorials: the recorded videos play to their end from our own server, /intro
 * shows real screenshots in the theme in use and no invented user count, and every public page passes axe in both
 * themes.
 */
const suite = useE2ESuite(() => ({ env: { AUTH_RATE_LIMIT: '1000' } }));
const scenario = suite.scenario.bind(suite);

const themed = async (context: Awaited<ReturnType<typeof scenario>>['context'], theme: 'dark' | 'light') =>
  context.addInitScript((value) => {
    if (window.location.protocol.startsWith('http')) window.localStorage.setItem('theme', value);
  }, theme);

describe('tutorials', () => {
  it('plays each recorded video from our own server to its end, and remembers it was watched', async () => {
    const { page, context } = await scenario();
    await signedInAccount(suite.e2e.app, context, 'tutorials');
    await page.goto('/tutorials');
    // The spec's three tutorials, each recorded from the app.
    const recorded = Object.keys(RECORDED_VIDEOS);
    expect([...recorded].sort()).toEqual(['reflect-page', 'reflectai', 'trades-log']);
    await eventually(() => page.getByTestId('tutorial-video').count()).toBe(3);
    for (const id of recorded) {
      const card = page.getByTestId(`tutorial-${id}`);
      const video = card.getByTestId('tutorial-video');
      await video.waitFor();
      const src = await video.evaluate((v: HTMLVideoElement) => v.currentSrc || v.src);
      expect(new URL(src).origin).toBe(suite.e2e.app.url);
      // Play it through, fast, and wait for the 'ended' event.
      const result = await video.evaluate(
        (v: HTMLVideoElement) =>
          new Promise<{ duration: number; ended: boolean; width: number }>((resolve, reject) => {
            v.muted = true;
            v.addEventListener('ended', () => resolve({ duration: v.duration, ended: v.ended, width: v.videoWidth }), { once: true });
            v.addEventListener('error', () => reject(new Error(`video error ${v.error?.code}`)), { once: true });
            v.playbackRate = 8;
            void v.play().catch(reject);
          }),
      );
      expect(result.ended).toBe(true);
      expect(result.duration).toBeGreaterThan(15);
      expect(result.width).toBe(1280);
      await eventually(() => card.getByText('Watched').count()).toBe(1);
    }
    const progress = await page.evaluate(() => JSON.parse(window.localStorage.getItem('tutorial-progress') ?? '{}'));
    for (const id of recorded) expect(progress[id]).toBe(true);
  });

  it('captions each recorded video with the words it shows, in order, as a WebVTT track the player loads', async () => {
    // The words each video shows are the captions its recording script puts on screen, walk-through by walk-through.
    const script = fs.readFileSync(new URL('../scripts/record-tutorials.ts', import.meta.url), 'utf8');
    const shown = (id: string) => {
      const start = script.indexOf(id === 'reflectai' ? '\n  reflectai: {' : `\n  '${id}': {`);
      const next = script.indexOf('\n  },\n', start);
      return [...script.slice(start, next).matchAll(/caption\(\s*page,\s*'([^']+)'/g)].map((m) => m[1]);
    };
    const { page, context } = await scenario();
    await signedInAccount(suite.e2e.app, context, 'captions');
    await page.goto('/tutorials');
    await eventually(() => page.getByTestId('tutorial-video').count()).toBe(3);
    for (const [id, { captions }] of Object.entries(RECORDED_VIDEOS)) {
      const served = await fetch(`${suite.e2e.app.url}${captions}`);
      expect(served.headers.get('content-type')).toBe('text/vtt; charset=utf-8');
      const video = page.getByTestId(`tutorial-${id}`).getByTestId('tutorial-video');
      const track = await video.evaluate(
        (v: HTMLVideoElement) =>
          new Promise<{ kind: string; lang: string; mode: string; cues: Array<{ start: number; end: number; text: string }>; duration: number }>(
            (resolve, reject) => {
              const element = v.querySelector('track');
              if (!element) return reject(new Error('no <track>'));
              const read = () => {
                const cues = [...(element.track.cues ?? [])] as VTTCue[];
                resolve({
                  kind: element.kind,
                  lang: element.srclang,
                  mode: element.track.mode,
                  cues: cues.map((c) => ({ start: c.startTime, end: c.endTime, text: c.text })),
                  duration: v.duration,
                });
              };
              const whenReady = () => (Number.isNaN(v.duration) ? v.addEventListener('loadedmetadata', read, { once: true }) : read());
              if (element.readyState === 2) whenReady();
              else {
                element.addEventListener('load', whenReady, { once: true });
                element.addEventListener('error', () => reject(new Error(`captions failed to load: ${element.src}`)), { once: true });
              }
            },
          ),
      );
      expect(track).toMatchObject({ kind: 'captions', lang: 'en', mode: 'showing' });
      const words = shown(id);
      expect(words.length, id).toBeGreaterThan(4);
      expect(
        track.cues.map((c) => c.text.split('\n')[0]),
        id,
      ).toEqual(words);
      // One after another from the start to the video's end, never overlapping.
      expect(track.cues[0]!.start).toBe(0);
      for (const [i, cue] of track.cues.entries()) {
        expect(cue.end, `${id} cue ${i}`).toBeGreaterThan(cue.start);
        if (i > 0) expect(cue.start, `${id} cue ${i}`).toBeCloseTo(track.cues[i - 1]!.end, 3);
      }
      expect(track.cues.at(-1)!.end).toBeCloseTo(track.duration, 1);
    }
  });

  it('keeps each video small, with its poster', async () => {
    for (const { src, poster } of Object.values(RECORDED_VIDEOS)) {
      const video = await fetch(`${suite.e2e.app.url}${src}`);
      expect(video.status).toBe(200);
      expect((await video.arrayBuffer()).byteLength).toBeLessThan(1_500_000);
      const still = await fetch(`${suite.e2e.app.url}${poster}`);
      expect(still.headers.get('content-type')).toBe('image/webp');
      expect((await still.arrayBuffer()).byteLength).toBeGreaterThan(1_000);
    }
  });

  it('serves the videos with byte ranges, so the player can seek', async () => {
    const [first] = Object.values(RECORDED_VIDEOS);
    const res = await fetch(`${suite.e2e.app.url}${first!.src}`, { headers: { range: 'bytes=0-99' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-type')).toBe('video/webm');
    expect((await res.arrayBuffer()).byteLength).toBe(100);
  });
});

describe('intro', () => {
  it.each(['dark', 'light'] as const)('shows real screenshots in the %s theme, and no user count', async (theme) => {
    const { page, context } = await scenario({ colorScheme: theme });
    await themed(context, theme);
    await new IntroPage(page).goto();
    for (const name of ['dashboard', 'trade-log', 'reflect', 'reflect-ai']) {
      const img = page.getByTestId(`intro-screenshot-${name}`);
      await img.scrollIntoViewIfNeeded();
      expect(await img.getAttribute('src')).toBe(`/intro/${name}-${theme}.webp`);
      await eventually(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth)).toBe(1200);
    }
    const text = await page.locator('main').innerText();
    expect(text).not.toMatch(/\d[\d,.]*\s*\+?\s*(traders|users)/i);
  });
  it('paints at once on a first load: no fade from opacity 0, so Chromium records a first contentful paint', async () => {
    const { page } = await scenario();
    await new IntroPage(page).goto();
    // Nothing on the first screen animates its opacity, and the heading is fully opaque straight away.
    const fading = await page.evaluate(
      () => document.getAnimations().filter((a) => a.playState === 'running' && a.effect?.getTiming().iterations !== Infinity).length,
    );
    expect(fading).toBe(0);
    expect(await page.locator('.page-fade-intro, .page-fade').count()).toBe(0);
    await eventually(() => page.evaluate(() => performance.getEntriesByType('paint').map((p) => p.name))).toContain('first-contentful-paint');
    // Moving between pages still fades.
    await page.getByRole('link', { name: 'Sign In' }).first().click();
    await page.waitForURL('**/login');
    await eventually(() => page.locator('.page-fade').count()).toBe(1);
  });
});

describe('accessibility of the public pages', () => {
  it.each(['dark', 'light'] as const)('every public page passes axe in the %s theme', async (theme) => {
    const { page, context } = await scenario({ colorScheme: theme });
    await themed(context, theme);
    // The new-password form needs a real link: a made-up token shows Invalid Reset Link at once.
    const { email } = await createAccount(suite.e2e.app, `a11y-reset-${theme}`);
    const requested = await fetch(`${suite.e2e.app.url}/api/auth/request-password-reset`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: suite.e2e.app.url },
      body: JSON.stringify({ email, redirectTo: `${suite.e2e.app.url}/reset-password` }),
    });
    expect(requested.status).toBe(200);
    let resetLink = '';
    await eventually(() => {
      const text = loggedEmails(suite.e2e.app.logs, email).at(-1)?.text ?? '';
      resetLink = /https?:\/\/\S+/.exec(text)?.[0] ?? '';
      return resetLink;
    }).not.toBe('');
    for (const [path, ready] of [
      ['/intro', 'Get Started'],
      ['/login', 'Sign In'],
      ['/register', 'Create Account'],
      ['/forgot-password', 'Send Reset Link'],
      ['/reset-password', 'Request New Reset Link'],
      ['/reset-password?token=x', 'Invalid Reset Link'],
      [resetLink, 'Confirm New Password'],
      ['/no-such-page', 'Return to Dashboard'],
    ] as const) {
      await page.goto(path);
      await page.getByText(ready, { exact: true }).first().waitFor();
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      const violations = await seriousA11yViolations(page);
      expect(violations, `${path}\n${violations.join('\n')}`).toEqual([]);
    }
    await signedInAccount(suite.e2e.app, context, `a11y-${theme}`);
    await page.goto('/tutorials');
    await page.getByTestId('tutorial-video').first().waitFor();
    const violations = await seriousA11yViolations(page);
    expect(violations, `/tutorials\n${violations.join('\n')}`).toEqual([]);
  });
});

describe('the sign-in return (auth-callback.html)', () => {
  it('forwards only to paths of the app, whatever tabs, newlines or backslashes in next hide another site behind', async () => {
    const { page, context } = await scenario();
    const origin = suite.e2e.app.url;
    // Any request to another site is recorded and answered here, so a redirect out is seen, not followed.
    const elsewhere: string[] = [];
    await context.route(
      (url) => url.origin !== origin,
      (route) => {
        elsewhere.push(route.request().url());
        return route.fulfill({ contentType: 'text/html', body: '<p>elsewhere</p>' });
      },
    );
    // Only where the callback sends the browser matters here: the app's own pages are answered with a stub.
    await context.route(
      (url) => url.origin === origin && url.pathname !== '/auth-callback.html',
      (route) =>
        route.request().resourceType() === 'document' ? route.fulfill({ contentType: 'text/html', body: '<p>landed</p>' }) : route.continue(),
    );
    // The check read the raw second character; the browser drops tabs and newlines, and reads '\' as '/'.
    const cases: Array<[query: string, landing: string]> = [
      ['next=%2F%09%2Fevil.example%2F', '/'],
      ['next=%2F%0A%2Fevil.example%2F', '/'],
      ['next=%2F%0D%2Fevil.example%2F', '/'],
      ['next=%2F%5C%2Fevil.example%2F', '/'],
      ['next=%2F%09%5Cevil.example', '/'],
      ['next=%2F%09%2Fevil.example%2F&error=access_denied&provider=google', '/login?oauth_error=access_denied&provider=google'],
      ['next=%2Ftrades%3Fq%3DNQ%23top', '/trades?q=NQ#top'],
    ];
    for (const [query, landing] of cases) {
      await page.goto(`/auth-callback.html?${query}`);
      await page.waitForURL((url) => url.pathname !== '/auth-callback.html');
      const landed = new URL(page.url());
      expect(landed.origin, query).toBe(origin);
      expect(`${landed.pathname}${landed.search}${landed.hash}`, query).toBe(landing);
    }
    expect(elsewhere).toEqual([]);
  });
});
