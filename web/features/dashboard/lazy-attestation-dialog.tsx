/**
 * The attestation dialog (attestation-dialog.tsx), loaded the first time it opens: the dashboard's
 * first load carries neither the dialog nor zod (issue 18). Used by the completion button and the
 * 'Re-attestation required' card (issue 14).
 */
import { lazy, Suspense } from 'react';
import type { AttestationDialogProps } from './attestation-dialog.tsx';

const AttestationDialog = lazy(() => import('./attestation-dialog.tsx'));

export function LazyAttestationDialog(props: AttestationDialogProps) {
  if (!props.opened) return null;
  return (
    <Suspense fallback={null}>
      <AttestationDialog {...props} />
    </Suspense>
  );
}
