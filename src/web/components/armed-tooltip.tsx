import { Tooltip, type TooltipProps } from '@mantine/core';
import { cloneElement, useEffect, useRef, useState, type FocusEvent, type PointerEvent, type ReactElement, type Ref } from 'react';

interface TargetProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
}

type ArmedTooltipProps = Omit<TooltipProps, 'children' | 'opened'> & { children: ReactElement };

/**
 * Mantine's Tooltip, put in place the first time a mouse points at its target or the target is focused, not on the
 * first screen (issue 14): every mounted Tooltip sets state while the screen is being committed (floating-ui's
 * reference, its id, its portal), which React renders again at once, and the shell's dozen tooltips were most of a
 * ~0.3 s task on a phone's CPU. A touch never arms it, so a tap is never cut short by the target being replaced.
 */
export function ArmedTooltip({ children, disabled = false, ...props }: ArmedTooltipProps) {
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const target = useRef<HTMLElement>(null);
  // Armed by focus: the target is replaced inside the tooltip, so the focus goes back to it.
  const refocus = useRef(false);
  useEffect(() => {
    if (armed && refocus.current) {
      refocus.current = false;
      target.current?.focus();
    }
  }, [armed]);

  const own = children.props as TargetProps;
  const element = cloneElement(children as ReactElement<TargetProps>, {
    ref: target,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      if (disabled || event.pointerType !== 'mouse') return;
      setArmed(true);
      setOpen(true);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      own.onPointerLeave?.(event);
      setOpen(false);
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      own.onFocus?.(event);
      if (disabled || !event.currentTarget.matches(':focus-visible')) return;
      if (!armed) refocus.current = true;
      setArmed(true);
      setOpen(true);
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      own.onBlur?.(event);
      if (!refocus.current) setOpen(false);
    },
  });
  if (!armed) return element;
  return (
    <Tooltip {...props} disabled={disabled} opened={open && !disabled}>
      {element}
    </Tooltip>
  );
}
