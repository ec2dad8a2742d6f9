/**
 * Toasts (spec §8: every message is a toast with a title and a description). Titles and
 * descriptions are the spec's exact texts, passed by the caller.
 */
import { notifications } from '@mantine/notifications';
import type { ReactNode } from 'react';

/**
 * Where a toast belongs when a newer one must replace it (issue 28): a toast shown with a `slot`
 * removes the one shown before it in the same slot, so 'Welcome back!' never sits beside a stale
 * 'Sign In Failed'. A fresh id each time: Mantine ignores a `show` whose id is still on screen.
 */
export type ToastSlot = 'sign-in';

/** The id of the toast each slot shows now. */
const slotToasts = new Map<ToastSlot, string>();

interface ToastOptions {
  /** Replace the toast shown before in this slot. */
  slot?: ToastSlot;
  /** Milliseconds before it closes by itself (Mantine's default: 4000); false: only when closed. */
  autoClose?: number | false;
}

function show(
  title: string,
  message: ReactNode,
  color: 'green' | 'red' | 'yellow',
  { slot, autoClose }: ToastOptions,
): string {
  if (slot) {
    const previous = slotToasts.get(slot);
    if (previous) notifications.hide(previous);
  }
  const id = notifications.show({ title, message, color, withBorder: true, autoClose });
  if (slot) slotToasts.set(slot, id);
  return id;
}

/** @returns the toast's id (notifications.hide(id) removes it, e.g. a stale failure; issue 17) */
export function notifySuccess(title: string, message: ReactNode, options: ToastOptions = {}): string {
  return show(title, message, 'green', options);
}

/**
 * A notice the person should act on (issue 51 item 3: a saved malpractice policy not in force yet):
 * yellow, and it stays until closed unless `autoClose` says otherwise. @returns its id
 */
export function notifyNotice(title: string, message: string, options: ToastOptions = {}): string {
  return show(title, message, 'yellow', { autoClose: false, ...options });
}

/** A destructive (red) toast. @returns its id (see notifySuccess) */
export function notifyError(title: string, message: string, options: ToastOptions = {}): string {
  return show(title, message, 'red', { autoClose: 8000, ...options });
}

/** Remove a toast now, by the id notifySuccess/notifyError returned (issue 17: no stale failure). */
export function dismissToast(id: string) {
  notifications.hide(id);
}

/**
 * Remove every toast, shown or waiting: signing out leaves nothing of the person who signed out on
 * the screen (a toast may name their application or what was copied into it).
 */
export function dismissAllToasts() {
  notifications.clean();
  slotToasts.clear();
}
