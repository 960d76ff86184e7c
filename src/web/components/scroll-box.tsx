import type { ComponentPropsWithoutRef } from 'react';
import classes from './scroll-box.module.css';

/**
 * A list that scrolls within a height, with the browser's own scrolling (thin scrollbar). Used on the first screen
 * rather than Mantine's ScrollArea: each ScrollArea measured itself and set state while the screen was
 * being committed, which React rendered again at once, with the whole list inside it, in the same long task.
 */
export function ScrollBox({ maxHeight, className, style, ...props }: ComponentPropsWithoutRef<'div'> & { maxHeight?: number }) {
  return <div {...props} className={className ? `${classes.box} ${className}` : classes.box} style={{ ...style, maxHeight }} />;
}
