import { Notifications } from '@mantine/notifications';

/** Mantine's toasts, in a chunk of their own (./providers loads it after the first paint). */
export function ToastStack() {
  // One toast at a time, closing by itself (the spec's 1,000,000 ms was a library default). No slide: a
  // replaced toast leaves at once rather than sliding out beside its successor.
  return <Notifications limit={1} autoClose={4000} position="top-right" transitionDuration={0} />;
}
