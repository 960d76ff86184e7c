import { notifications } from '@mantine/notifications';
import { ApiError } from '../../../lib/api';
import { busyMessage } from './api';

/** The spec's toasts: a title, sometimes a description. One at a time (providers.tsx). */
export function toastSuccess(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'teal' });
}

export function toastError(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'red' });
}

/** The server's message when it sent one meant for the trader (`{ error }`), else nothing. */
export function describeError(error: unknown): string | undefined {
  const busy = busyMessage(error);
  if (busy) return busy;
  if (error instanceof ApiError) return /^Request failed/.test(error.message) || error.status >= 500 ? undefined : error.message;
  return undefined;
}
