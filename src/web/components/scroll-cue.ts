import { useEffect, useState, type RefObject } from 'react';

/** Which ends of a sideways row hide more of it: the row shows a cue (a fade and an arrow) at each. */
export interface ScrollCue {
  start: boolean;
  end: boolean;
}

/** A pixel of slack: a zoomed page reports fractional scroll positions that never quite reach the end. */
const SLACK = 1;

export function scrollCueOf(scrollLeft: number, clientWidth: number, scrollWidth: number): ScrollCue {
  return { start: scrollLeft > SLACK, end: scrollLeft + clientWidth < scrollWidth - SLACK };
}

/**
 * The cue of a row that scrolls sideways (the Reports tabs on a phone), kept as the trader scrolls it and as the
 * screen's width changes, with the chosen item (`[data-active]`) brought into view when `active` changes.
 */
export function useScrollCue(ref: RefObject<HTMLElement | null>, active: string): ScrollCue {
  const [cue, setCue] = useState<ScrollCue>({ start: false, end: false });
  useEffect(() => {
    const row = ref.current;
    if (!row) return;
    const measure = () => {
      const next = scrollCueOf(row.scrollLeft, row.clientWidth, row.scrollWidth);
      setCue((prev) => (prev.start === next.start && prev.end === next.end ? prev : next));
    };
    measure();
    row.addEventListener('scroll', measure, { passive: true });
    const resize = new ResizeObserver(measure);
    resize.observe(row);
    return () => {
      row.removeEventListener('scroll', measure);
      resize.disconnect();
    };
  }, [ref]);
  useEffect(() => {
    const row = ref.current;
    const chosen = row?.querySelector<HTMLElement>('[data-active]');
    if (!row || !chosen) return;
    // Only the row scrolls: the page stays where the trader left it.
    const box = row.getBoundingClientRect();
    const item = chosen.getBoundingClientRect();
    if (item.left < box.left || item.right > box.right) row.scrollLeft = Math.max(0, row.scrollLeft + item.left - box.left - 24);
  }, [ref, active]);
  return cue;
}
