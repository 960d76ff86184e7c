import { notifications } from '@mantine/notifications';

/** The spec's toasts: a title, sometimes a description. One at a time (providers.tsx). */
export function toastSuccess(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'teal' });
}

export function toastError(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'red' });
}

/** A neutral notice, e.g. 'Analysis Cancelled'. */
export function toastInfo(title: string, message?: string) {
  notifications.show({ title: message ? title : undefined, message: message ?? title, color: 'gray' });
}
