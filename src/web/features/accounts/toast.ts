import { notifications } from '@mantine/notifications';

/** The spec's toasts (part 1 §8): a title, sometimes a description. One at a time (providers.tsx). */
export function toastSuccess(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'teal' });
}

export function toastError(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'red' });
}

/** The server's message when it sent one meant for the trader, else nothing. */
export function describeError(error: unknown): string | undefined {
  return error instanceof Error && error.message && !/^Request failed/.test(error.message) ? error.message : undefined;
}
