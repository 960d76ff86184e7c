import { ComboboxChevron, InputBase, type ComboboxItem, type SelectProps } from '@mantine/core';
import { lazy, Suspense, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { withAllStyles } from '../lib/all-styles';

// The dropdown's styles (Popover, ScrollArea) are not among the first screen's: they come with all of Mantine's.
const Select = lazy(withAllStyles(() => import('./loaded-select')));
const preload = () => void import('./loaded-select');

/** The keys that open a closed Select (Mantine's combobox target of type button); Enter must not submit a form. */
const OPENING_KEYS = new Set(['ArrowDown', 'ArrowUp', 'Enter', 'NumpadEnter', 'Space']);

/** What the trader did to the light field, done again on Mantine's Select once it has loaded. */
type FirstUse = { kind: 'click' } | { kind: 'key'; key: string; code: string };

export type LazySelectProps = Omit<SelectProps, 'data'> & { data: (string | ComboboxItem)[]; 'data-testid'?: string };

/**
 * Mantine's Select, whose code (Combobox, Popover, ScrollArea, FocusTrap: ~16 kB gzipped) loads when the trader points
 * at, focuses, clicks or opens the field from the keyboard, not with the first screen. Until then
 * a read-only field draws the same closed Select: Mantine's input with the chosen label and the same chevron, named
 * and announced as a combobox. The click or key that asked for the list is done again on the loaded Select, which
 * takes the focus, so the list opens as if it had been there all along.
 */
export function LazySelect(props: LazySelectProps) {
  const [firstUse, setFirstUse] = useState<FirstUse | null>(null);
  const { data, value, size, label, w, maw, disabled, 'aria-label': ariaLabel, 'data-testid': testId } = props;
  const selected = data.map((d) => (typeof d === 'string' ? { value: d, label: d } : d)).find((d) => d.value === value);

  const field = (
    <InputBase
      readOnly
      pointer
      value={selected?.label ?? ''}
      size={size}
      label={label}
      w={w}
      maw={maw}
      disabled={disabled}
      aria-label={ariaLabel}
      role="combobox"
      aria-haspopup="listbox"
      aria-expanded={false}
      data-testid={testId}
      rightSection={<ComboboxChevron size={size} />}
      rightSectionPointerEvents="none"
      onPointerEnter={preload}
      onFocus={preload}
      onClick={() => setFirstUse({ kind: 'click' })}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        if (!OPENING_KEYS.has(event.nativeEvent.code)) return;
        event.preventDefault();
        setFirstUse({ kind: 'key', key: event.key, code: event.nativeEvent.code });
      }}
    />
  );
  if (!firstUse) return field;
  return (
    <Suspense fallback={field}>
      <LoadedSelect {...props} firstUse={firstUse} />
    </Suspense>
  );
}

function LoadedSelect({ firstUse, ...props }: LazySelectProps & { firstUse: FirstUse }) {
  const input = useRef<HTMLInputElement>(null);
  const replayed = useRef(false);
  useLayoutEffect(() => {
    const el = input.current;
    if (!el || replayed.current) return;
    replayed.current = true;
    el.focus();
    if (firstUse.kind === 'click') el.click();
    else el.dispatchEvent(new globalThis.KeyboardEvent('keydown', { key: firstUse.key, code: firstUse.code, bubbles: true, cancelable: true }));
  }, [firstUse]);
  return <Select {...props} ref={input} />;
}
