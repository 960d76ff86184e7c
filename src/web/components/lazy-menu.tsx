import { lazy, Suspense, useState, type ReactElement } from 'react';
import type { MenuChoice } from './menu-choices';
import { withAllStyles } from '../lib/all-styles';

const MenuChoices = lazy(withAllStyles(() => import('./menu-choices').then((m) => ({ default: m.MenuChoices }))));
const preload = () => void import('./menu-choices');

/** What the placeholder button needs (the loaded menu's target gets Mantine's own props instead). */
export interface MenuTargetProps {
  onClick?: () => void;
  onPointerEnter?: () => void;
  onFocus?: () => void;
  'aria-haspopup'?: 'menu';
  'aria-expanded'?: boolean;
}

export interface LazyMenuProps {
  /** The button that opens the menu: shown at once, before the menu's code has loaded. */
  target: (props: MenuTargetProps) => ReactElement;
  choices: MenuChoice[];
  position?: 'bottom-end' | 'bottom-start';
}

/**
 * A menu on the first screen whose code (Mantine's Menu, Popover and focus trap) loads when the trader points at,
 * focuses or clicks its button, not before the screen renders. The first click opens it once loaded.
 */
export function LazyMenu({ target, choices, position = 'bottom-end' }: LazyMenuProps) {
  const [used, setUsed] = useState(false);
  const placeholder = target({
    onClick: () => setUsed(true),
    onPointerEnter: preload,
    onFocus: preload,
    'aria-haspopup': 'menu',
    'aria-expanded': false,
  });
  if (!used) return placeholder;
  return (
    <Suspense fallback={placeholder}>
      <MenuChoices target={target} choices={choices} position={position} />
    </Suspense>
  );
}
