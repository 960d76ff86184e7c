import crypto from 'node:crypto';
import type { ResvgRenderOptions } from '@resvg/resvg-js';

/**
 * The shared pages' preview card as a PNG: chat apps (Slack, WhatsApp, iMessage, X) draw no SVG preview. The PNG is
 * rendered from the card's SVG, the source of both, so whatever the link hides is not in it either.
 *
 * Text needs a font: the system's fonts are loaded, and the card's sans-serif is DejaVu Sans, which Debian's fontconfig
 * (pulled in by its Chromium) installs. Where that family is missing resvg falls back to another installed font; with
 * no font at all the card is drawn without its words, still a valid 1200 by 630 image.
 */
const SANS_SERIF = 'DejaVu Sans';

/**
 * Rendered cards by their SVG text: a card changes only when what its link shows or hides changes, so a chat app's
 * burst of fetches renders it once. Bounded; the least recently used go first.
 */
const CACHE_MAX = 200;
const cache = new Map<string, Promise<Uint8Array>>();
let renders = 0;

let options: ResvgRenderOptions | undefined;
function renderOptions(): ResvgRenderOptions {
  options ??= {
    fitTo: { mode: 'width', value: 1200 },
    font: { loadSystemFonts: true, defaultFontFamily: SANS_SERIF, sansSerifFamily: SANS_SERIF },
  };
  return options;
}

export function renderPreviewPng(svg: string): Promise<Uint8Array> {
  const key = crypto.createHash('sha256').update(svg).digest('base64url');
  const cached = cache.get(key);
  if (cached) {
    cache.delete(key);
    cache.set(key, cached);
    return cached;
  }
  // The promise is kept at once, so requests that come while it renders wait for the same render.
  renders++;
  // Loaded on the first card: a renderer that cannot load (no build of it for this platform) fails that card's
  // request, never the server's start or the shared pages themselves.
  const rendered = import('@resvg/resvg-js')
    .then(({ renderAsync }) => renderAsync(svg, renderOptions()))
    .then((image) => new Uint8Array(image.asPng()));
  cache.set(key, rendered);
  rendered.catch(() => cache.delete(key));
  if (cache.size > CACHE_MAX) cache.delete(cache.keys().next().value!);
  return rendered;
}

/** How many cards this process has rendered (a burst of fetches of one card renders it once). */
export const previewRenderCount = () => renders;
