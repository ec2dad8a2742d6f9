/**
 * Toasts (spec §8: every message is a toast with a title and a description). Titles and
 * descriptions are the spec's exact texts, passed by the caller.
 */
import { notifications } from '@mantine/notifications';

export function notifySuccess(title: string, message: string) {
  notifications.show({ title, message, color: 'green', withBorder: true });
}

/** A destructive (red) toast. */
export function notifyError(title: string, message: string) {
  notifications.show({ title, message, color: 'red', withBorder: true, autoClose: 8000 });
}
