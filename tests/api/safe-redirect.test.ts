import fs from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { afterSignInPath, sameOriginPath } from '../../src/web/lib/redirect-state';

/**
 * The sign-in return (public/auth-callback.js) and the app's own return after sign-in
 * (src/web/lib/redirect-state.ts) go only to paths of this app, as the browser reads them. Node's URL parser is the
 * WHATWG one Chromium follows (e2e/public-pages.test.ts checks the page in Chromium itself).
 */
const ORIGIN = 'https://journal.example.com';

/** `next` values that lead elsewhere once the browser has parsed them: each must land on '/'. */
const ELSEWHERE = [
  '/\t/evil.example/',
  '/\n/evil.example/',
  '/\r/evil.example/',
  '/\\/evil.example/',
  '/\t\\evil.example',
  '\\/evil.example',
  '//evil.example',
  '///evil.example',
  '/\t\t/evil.example/path?x=1',
  'https://evil.example/',
  'HTTPS://evil.example',
  'javascript:alert(1)',
  ' /\t/evil.example',
  'evil.example',
  '',
];

/** Paths of the app, and the path they lead to. */
const OWN: Array<[string, string]> = [
  ['/', '/'],
  ['/trades', '/trades'],
  ['/trade/0b6f?tab=notes#images', '/trade/0b6f?tab=notes#images'],
  ['/notebook/%2F%2Fevil.example', '/notebook/%2F%2Fevil.example'],
  ['/a/../dashboard', '/dashboard'],
  ['/\tjournal', '/journal'],
];

/** Runs the real auth-callback.js with `search` as the page's query; returns where it sent the browser. */
function callbackTarget(search: string): string {
  const script = fs.readFileSync(new URL('../../src/web/public/auth-callback.js', import.meta.url), 'utf8');
  let target = '';
  const location = { origin: ORIGIN, search, replace: (url: string) => (target = url) };
  vm.runInNewContext(script, { window: { location }, URL, URLSearchParams });
  return target;
}

describe('same-origin paths only, as the browser parses them', () => {
  it('refuses what leads to another site once tabs, newlines and backslashes are read (sameOriginPath)', () => {
    for (const next of ELSEWHERE) expect(sameOriginPath(next, ORIGIN), JSON.stringify(next)).toBeNull();
    for (const [next, path] of OWN) expect(sameOriginPath(next, ORIGIN), JSON.stringify(next)).toBe(path);
  });

  it('sends the auth callback to the dashboard instead, with and without a sign-in error', () => {
    for (const next of ELSEWHERE) {
      expect(callbackTarget(`?${new URLSearchParams({ next })}`), JSON.stringify(next)).toBe('/');
      const refused = new URL(callbackTarget(`?${new URLSearchParams({ next, error: 'access_denied', provider: 'google' })}`), ORIGIN);
      expect(refused.origin, JSON.stringify(next)).toBe(ORIGIN);
      expect(`${refused.pathname}${refused.search}`).toBe('/login?oauth_error=access_denied&provider=google');
    }
    for (const [next, path] of OWN) expect(callbackTarget(`?${new URLSearchParams({ next })}`), JSON.stringify(next)).toBe(path);
    // The issue's own link, exactly as it was sent.
    expect(callbackTarget('?next=%2F%09%2Fevil.example%2F')).toBe('/');
    expect(callbackTarget('')).toBe('/');
  });

  it('returns after sign-in only to a page of the app, never to a public auth page (afterSignInPath)', () => {
    const from = (pathname: string, search = '', hash = '') => ({ from: { pathname, search, hash } });
    expect(afterSignInPath(from('/trades', '?q=NQ', '#top'), ORIGIN)).toBe('/trades?q=NQ#top');
    expect(afterSignInPath(from('/\t/evil.example'), ORIGIN)).toBe('/');
    expect(afterSignInPath(from('/\\evil.example'), ORIGIN)).toBe('/');
    expect(afterSignInPath(from('//evil.example'), ORIGIN)).toBe('/');
    expect(afterSignInPath(from('/login'), ORIGIN)).toBe('/');
    expect(afterSignInPath(from('/\tlogin'), ORIGIN)).toBe('/');
    expect(afterSignInPath(undefined, ORIGIN)).toBe('/');
  });
});
