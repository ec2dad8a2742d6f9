/**
 * Toasts (spec §8: every message is a toast with a title and a description). Titles and
 * descriptions are the spec's exact texts, passed by the caller.
 */
import { notifications } from '@mantine/notifications';

/** @returns the toast's id (notifications.hide(id) removes it, e.g. a stale failure; issue 17) */
export function notifySuccess(title: string, message: string): string {
  return notifications.show({ title, message, color: 'green', withBorder: true });
}

/** A destructive (red) toast. @returns its id (see notifySuccess) */
export function notifyError(title: string, message: string): string {
  return notifications.show({ title, message, color: 'red', withBorder: true, autoClose: 8000 });
}

/** Remove a toast now, by the id notifySuccess/notifyError returned (issue 17: no stale failure). */
export function dismissToast(id: string) {
  notifications.hide(id);
}
