import { useSyncExternalStore } from 'react';

// Shell-wide modes: trading mode and dashboard edit mode. Kept in a tiny store so the
// dashboard (a later feature) can read them without importing the shell.
export interface UiModes {
  tradingMode: boolean;
  editMode: boolean;
}

let state: UiModes = { tradingMode: false, editMode: false };
const listeners = new Set<() => void>();

function emit() {
  for (const listener of listeners) listener();
}

export function setUiModes(update: Partial<UiModes>): void {
  state = { ...state, ...update };
  document.body.classList.toggle('edit-mode', state.editMode);
  document.body.classList.toggle('trading-mode', state.tradingMode);
  emit();
}

export function resetUiModes(): void {
  setUiModes({ tradingMode: false, editMode: false });
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const OFF: UiModes = { tradingMode: false, editMode: false };

/** The modes; off when drawn at build time (src/web/prerender.tsx). */
export function useUiModes(): UiModes {
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => OFF,
  );
}
