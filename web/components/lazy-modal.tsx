/**
 * Mantine's Modal, loaded the first time it opens: a page showing a button that opens a confirmation
 * does not load the dialog's code (Modal, its focus trap, overlay, portal and scroll area: 25 kB
 * gzip) before its first paint (decision 033). Once opened it stays mounted, so it closes as a dialog
 * does (its transition, focus back on the button).
 */
import type { ModalProps } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';

const Modal = lazy(() => import('./modal-chunk.ts'));

/** `<Modal>` with the same props, its code loaded when `opened` first turns true. */
export function LazyModal(props: ModalProps) {
  const [needed, setNeeded] = useState(props.opened);
  if (props.opened && !needed) setNeeded(true);
  if (!needed) return null;
  return (
    <Suspense fallback={null}>
      <Modal {...props} />
    </Suspense>
  );
}
