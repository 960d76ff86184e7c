/**
 * Pages fade in (0.15 s, /intro 0.2 s), but only when the trader moves between pages: the
 * first screen of a load paints at once. Content that starts at opacity 0 is no first contentful paint to Chromium
 * (Lighthouse reports NO_FCP), and a fade there only delays what the trader came to see.
 */
let interacted = false;
if (typeof window !== 'undefined') {
  const mark = () => {
    interacted = true;
    window.removeEventListener('pointerdown', mark, true);
    window.removeEventListener('keydown', mark, true);
  };
  window.addEventListener('pointerdown', mark, true);
  window.addEventListener('keydown', mark, true);
}

/** The fade class for a page shown now, or undefined before the trader has done anything (the first screen). */
export function pageFadeClass(pathname: string): string | undefined {
  if (!interacted) return undefined;
  return pathname === '/intro' ? 'page-fade-intro' : 'page-fade';
}
