import { fireEvent, render, screen } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import { scrollCueOf, useScrollCue } from './scroll-cue';

describe('the cue of a row that scrolls sideways', () => {
  it('a row of 11 tabs 900 px wide on a 390 px phone: more at the end first, at both ends midway, at the start last', () => {
    expect(scrollCueOf(0, 390, 900)).toEqual({ start: false, end: true });
    expect(scrollCueOf(250, 390, 900)).toEqual({ start: true, end: true });
    expect(scrollCueOf(510, 390, 900)).toEqual({ start: true, end: false });
    // A zoomed page stops a fraction short of the end: nothing more to show there.
    expect(scrollCueOf(509.5, 390, 900)).toEqual({ start: true, end: false });
  });

  it('a row that fits (a desktop) shows no cue', () => {
    expect(scrollCueOf(0, 1200, 900)).toEqual({ start: false, end: false });
    expect(scrollCueOf(0, 900, 900)).toEqual({ start: false, end: false });
  });

  function Row() {
    const ref = useRef<HTMLDivElement>(null);
    const cue = useScrollCue(ref, 'overview');
    return (
      <div ref={ref} data-testid="row" data-start={cue.start || undefined} data-end={cue.end || undefined}>
        tabs
      </div>
    );
  }

  it("follows the trader's scrolling", () => {
    // jsdom lays nothing out: the row's sizes are set as a phone would measure them.
    const sizes = { clientWidth: 390, scrollWidth: 900 };
    for (const [key, value] of Object.entries(sizes)) Object.defineProperty(HTMLElement.prototype, key, { configurable: true, get: () => value });
    try {
      render(<Row />);
      const row = screen.getByTestId('row');
      expect(row).toHaveAttribute('data-end');
      expect(row).not.toHaveAttribute('data-start');
      row.scrollLeft = 510;
      fireEvent.scroll(row);
      expect(row).toHaveAttribute('data-start');
      expect(row).not.toHaveAttribute('data-end');
    } finally {
      for (const key of Object.keys(sizes)) delete (HTMLElement.prototype as unknown as Record<string, unknown>)[key];
    }
  });
});
