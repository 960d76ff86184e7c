import { toBlob } from 'html-to-image';
import { drawAllCharts } from '../../../components/charts';

/**
 * What an SVG shape or text takes from the page's style sheets. html-to-image copies the computed style of every HTML
 * element into its copy, but copies an <svg> whole, as markup: its shapes kept their classes and lost the rules
 * behind them (the score radar lost its grid, the win-rate rings their arcs, and the axis labels grew to
 * the default 16 px and were cut).
 */
const SVG_STYLE = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'visibility',
  'display',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
] as const;

/** Marks the page while a picture without dollar amounts is taken (global.css redacts `[data-money]`). */
const HIDE_MONEY_ATTRIBUTE = 'data-capture-hide-money';

/**
 * Puts on the page, for the moment of the capture, what the copy needs to look like the page: each SVG shape's
 * style written on it, scrolling lists cut at their height instead of showing scrollbars (a picture cannot scroll),
 * and amounts redacted when asked. Returns the undo, which puts every style attribute back as it was.
 */
function prepareForCapture(target: HTMLElement, hideMoney: boolean): () => void {
  const saved: Array<[Element, string | null]> = [];
  const setStyle = (element: HTMLElement | SVGElement, properties: Array<[string, string]>) => {
    saved.push([element, element.getAttribute('style')]);
    for (const [name, value] of properties) element.style.setProperty(name, value);
  };
  if (hideMoney) document.documentElement.setAttribute(HIDE_MONEY_ATTRIBUTE, '');

  // Everything is read before anything is written: a write between two reads makes the browser work out the whole
  // page's styles again for the next read (thousands of shapes took ~20 s so).
  const scrolls = (value: string) => value === 'auto' || value === 'scroll';
  const scrollers = [...target.querySelectorAll<HTMLElement>('*')].filter((element) => {
    if (!(element instanceof HTMLElement)) return false;
    const style = getComputedStyle(element);
    return scrolls(style.overflowX) || scrolls(style.overflowY);
  });
  // After the money attribute: a redacted axis label is hidden by a rule, which its inlined style carries over.
  const shapes = [...target.querySelectorAll<SVGElement>('svg *')].map((shape) => {
    const style = getComputedStyle(shape);
    return [shape, SVG_STYLE.map((name) => [name, style.getPropertyValue(name)] as [string, string]).filter(([, value]) => value !== '')] as const;
  });
  for (const element of scrollers) setStyle(element, [['overflow', 'hidden']]);
  for (const [shape, properties] of shapes) setStyle(shape, properties);

  return () => {
    for (const [element, style] of saved.reverse()) {
      if (style === null) element.removeAttribute('style');
      else element.setAttribute('style', style);
    }
    document.documentElement.removeAttribute(HIDE_MONEY_ATTRIBUTE);
  };
}

const nextFrame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

/**
 * A chart just drawn is an empty box until recharts has measured it (its ResponsiveContainer draws on the next resize
 * observation): a phone's balance chart, far below the fold, was missing from the picture. Waits for every chart in
 * the target to have its drawing, a second at most, then a frame for it to paint.
 */
async function chartsSized(target: HTMLElement): Promise<void> {
  const unsized = () => [...target.querySelectorAll('.recharts-responsive-container')].some((box) => !box.querySelector('.recharts-wrapper'));
  for (let waited = 0; unsized() && waited < 60; waited++) await nextFrame();
  await nextFrame();
}

/** Captures one at a time: a second one started meanwhile would save the first one's styles as the page's own. */
let running: Promise<unknown> = Promise.resolve();

/** The dashboard as a PNG, without the controls marked data-screenshot-ignore, and with its amounts or without. */
export function captureDashboard(target: HTMLElement, options: { hideMoney: boolean }): Promise<Blob> {
  const next = running.then(() => captureNow(target, options));
  running = next.catch(() => undefined);
  return next;
}

async function captureNow(target: HTMLElement, { hideMoney }: { hideMoney: boolean }): Promise<Blob> {
  // Charts below the fold are drawn when scrolled near; the picture holds them all.
  await drawAllCharts();
  await chartsSized(target);
  const background = getComputedStyle(document.body).backgroundColor;
  const restore = prepareForCapture(target, hideMoney);
  try {
    const blob = await toBlob(target, {
      backgroundColor: background,
      pixelRatio: Math.min(2, window.devicePixelRatio || 1),
      // No web fonts to embed (system fonts only), and nothing may be fetched from another origin (CSP).
      skipFonts: true,
      filter: (node) => !(node instanceof HTMLElement && node.dataset.screenshotIgnore !== undefined),
    });
    if (!blob) throw new Error('empty capture');
    return blob;
  } finally {
    restore();
  }
}
