import { Notification, createTheme, localStorageColorSchemeManager, type CSSVariablesResolver } from '@mantine/core';
import { STORAGE_KEYS } from '../lib/storage-keys';

export const colorSchemeManager = localStorageColorSchemeManager({ key: STORAGE_KEYS.theme });

const CLOSED_DROPDOWN_UNMOUNTED = { defaultProps: { comboboxProps: { keepMounted: false } } };
// Every dialog's close button and every date field's clear button says what it does (Create Trading
// Account, Add New Trade and Share had unnamed close buttons). A dialog that names its own keeps its name.
const NAMED_CLOSE = { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } };
const NAMED_DATE_CLEAR = { defaultProps: { clearButtonProps: { 'aria-label': 'Clear date' } } };

// Shades chosen for WCAG AA contrast: white text on indigo-7 and on red-8, dimmed text on both backgrounds.
export const theme = createTheme({
  primaryColor: 'indigo',
  primaryShade: { light: 7, dark: 7 },
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '700' },
  cursorType: 'pointer',
  components: {
    // Every toast's close button says what it does (axe: button-name).
    // A toast's description under its title reads in the theme's dimmed text (Mantine's gray-6 is 3.3:1 on white).
    Notification: Notification.extend({
      defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } },
      styles: { description: { color: 'var(--mantine-color-dimmed)' } },
    }),
    // A closed dropdown is not drawn (Mantine keeps it mounted, hidden): each kept one was placed by floating-ui while
    // the page was being committed, and that forced the whole new page's styles at once (~110 ms of the
    // phone dashboard's first commit, for the calendar's account picker and the tasks' category).
    // Plain objects, not Select.extend(): that would bring the four components' code into the first screen's bundle.
    Modal: NAMED_CLOSE,
    Drawer: NAMED_CLOSE,
    DatePickerInput: NAMED_DATE_CLEAR,
    DateInput: NAMED_DATE_CLEAR,
    Select: CLOSED_DROPDOWN_UNMOUNTED,
    MultiSelect: CLOSED_DROPDOWN_UNMOUNTED,
    Autocomplete: CLOSED_DROPDOWN_UNMOUNTED,
    TagsInput: CLOSED_DROPDOWN_UNMOUNTED,
  },
});

export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7] ?? '#495057',
    '--mantine-color-error': t.colors.red[8] ?? '#e03131',
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1] ?? '#b8b8b8',
    '--mantine-color-error': t.colors.red[5] ?? '#ff6b6b',
  },
});
