import { useReducedMotion } from '@mantine/hooks';
import { useEffect, useState } from 'react';

/** The typing animation: 25 ms to type, 15 ms to delete, 2000 ms pause, 100 ms before the next. */
export const TYPING_MS = { type: 25, erase: 15, pause: 2000, next: 100 } as const;

/**
 * The welcome screen's placeholder, typing each sample question, pausing, erasing it and going on to the next.
 * A trader who asked for reduced motion sees the first question, still. `active` false stops the timers.
 */
export function useTypingPlaceholder(samples: readonly string[], active: boolean): string {
  const reduceMotion = useReducedMotion();
  const [shown, setShown] = useState('');
  const still = reduceMotion || !active;

  useEffect(() => {
    if (still || samples.length === 0) return;
    let timer: number | undefined;
    let index = 0;
    let length = 0;
    let erasing = false;
    const step = () => {
      const sample = samples[index]!;
      if (!erasing) {
        length += 1;
        setShown(sample.slice(0, length));
        if (length < sample.length) timer = window.setTimeout(step, TYPING_MS.type);
        else {
          erasing = true;
          timer = window.setTimeout(step, TYPING_MS.pause);
        }
        return;
      }
      length -= 1;
      setShown(sample.slice(0, length));
      if (length > 0) timer = window.setTimeout(step, TYPING_MS.erase);
      else {
        erasing = false;
        index = (index + 1) % samples.length;
        timer = window.setTimeout(step, TYPING_MS.next);
      }
    };
    timer = window.setTimeout(step, TYPING_MS.next);
    return () => window.clearTimeout(timer);
  }, [still, samples]);

  return still ? (samples[0] ?? '') : shown;
}
