import type { TooltipProps } from '@mantine/core';
import {
  cloneElement,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactElement,
  type Ref,
} from 'react';

interface TargetProps {
  ref?: Ref<HTMLElement>;
  onPointerEnter?: (event: PointerEvent<HTMLElement>) => void;
  onPointerLeave?: (event: PointerEvent<HTMLElement>) => void;
  onPointerDown?: (event: PointerEvent<HTMLElement>) => void;
  onPointerUp?: (event: PointerEvent<HTMLElement>) => void;
  onFocus?: (event: FocusEvent<HTMLElement>) => void;
  onBlur?: (event: FocusEvent<HTMLElement>) => void;
  onKeyDown?: (event: KeyboardEvent<HTMLElement>) => void;
}

type ArmedTooltipProps = Omit<TooltipProps, 'children' | 'opened'> & { children: ReactElement };

/** How long a mouse rests on the target before its tooltip shows (and is put in place, the first time). */
const HOVER_MS = 300;

/**
 * The one tooltip showing: opening another closes it (tabbing along the sidebar, or tabbing while the mouse
 * rested on a button, left tooltips open behind the focus).
 */
let closeShown: (() => void) | null = null;

/**
 * Mantine's Tooltip once loaded: its code and floating-ui's (~20 kB gzipped) come when a tooltip is first asked for,
 * not with the first screen. Pointing at a target starts the load, well within HOVER_MS.
 */
let LoadedTooltip: typeof import('./loaded-tooltip').Tooltip | null = null;
let loading: Promise<void> | undefined;
function loadTooltip(): Promise<void> {
  loading ??= import('./loaded-tooltip').then((m) => {
    LoadedTooltip = m.Tooltip;
  });
  return loading;
}

/**
 * Mantine's Tooltip, put in place the first time a mouse rests on its target or the target is focused from the
 * keyboard, not with the first screen: every mounted Tooltip sets state while the screen is being committed
 * (floating-ui's reference, its id, its portal), which React renders again at once, and the shell's dozen tooltips
 * were most of a ~0.3 s task on a phone's CPU. Putting it in place replaces the target, so that never happens while a
 * button is pressed (the click would be lost) and the focus is given back; a touch never arms it.
 */
export function ArmedTooltip({ children, disabled = false, ...props }: ArmedTooltipProps) {
  const [armed, setArmed] = useState(false);
  const [open, setOpen] = useState(false);
  const target = useRef<HTMLElement>(null);
  const timer = useRef<number | undefined>(undefined);
  const pressed = useRef(false);
  // Armed by focus: the target is replaced inside the tooltip, so the focus goes back to it.
  const refocus = useRef(false);
  // `armed` as the handlers need it now, and whether the target is being replaced (its blur then is not the trader's).
  const armedNow = useRef(false);
  const replacing = useRef(false);
  useEffect(() => {
    if (!armed) return;
    replacing.current = false;
    if (refocus.current) {
      refocus.current = false;
      // Unless the trader has tabbed on in the meantime: the focus is not taken back from where it went.
      const active = document.activeElement;
      if (!active || active === document.body) target.current?.focus();
      else setOpen(false);
    }
  }, [armed]);
  // Still asked for when the tooltip's code arrives (the pointer has not left, the focus has not moved on).
  const wanted = useRef(false);
  const hide = useRef(() => {
    wanted.current = false;
    setOpen(false);
  });
  useEffect(
    () => () => {
      window.clearTimeout(timer.current);
      if (closeShown === hide.current) closeShown = null;
    },
    [],
  );

  const arm = () => {
    if (!armedNow.current) {
      armedNow.current = true;
      replacing.current = true;
      setArmed(true);
    }
    setOpen(true);
  };
  const show = () => {
    if (closeShown !== hide.current) closeShown?.();
    closeShown = hide.current;
    wanted.current = true;
    if (LoadedTooltip) {
      arm();
      return;
    }
    void loadTooltip().then(() => {
      if (wanted.current) arm();
    });
  };
  const own = children.props as TargetProps;
  const element = cloneElement(children as ReactElement<TargetProps>, {
    ref: target,
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      own.onPointerEnter?.(event);
      if (disabled || event.pointerType !== 'mouse') return;
      void loadTooltip();
      window.clearTimeout(timer.current);
      timer.current = window.setTimeout(() => !pressed.current && show(), HOVER_MS);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      own.onPointerLeave?.(event);
      window.clearTimeout(timer.current);
      pressed.current = false;
      hide.current();
    },
    onPointerDown: (event: PointerEvent<HTMLElement>) => {
      own.onPointerDown?.(event);
      pressed.current = true;
      window.clearTimeout(timer.current);
    },
    onPointerUp: (event: PointerEvent<HTMLElement>) => {
      own.onPointerUp?.(event);
      pressed.current = false;
    },
    onFocus: (event: FocusEvent<HTMLElement>) => {
      own.onFocus?.(event);
      if (disabled || pressed.current || !event.currentTarget.matches(':focus-visible')) return;
      if (!armedNow.current) refocus.current = true;
      show();
    },
    onBlur: (event: FocusEvent<HTMLElement>) => {
      own.onBlur?.(event);
      // The target put inside its tooltip is not the trader moving on. Otherwise they have (perhaps while the
      // tooltip's code was still coming, on a slow phone): the focus must never be taken back from where it went.
      if (replacing.current) return;
      refocus.current = false;
      hide.current();
    },
    // Escape dismisses a tooltip without moving the focus (WCAG 1.4.13).
    onKeyDown: (event: KeyboardEvent<HTMLElement>) => {
      own.onKeyDown?.(event);
      if (event.key === 'Escape' && open) hide.current();
    },
  });
  if (!armed || !LoadedTooltip) return element;
  const Tooltip = LoadedTooltip;
  return (
    <Tooltip {...props} disabled={disabled} opened={open && !disabled}>
      {element}
    </Tooltip>
  );
}
