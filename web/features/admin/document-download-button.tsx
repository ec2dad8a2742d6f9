/**
 * A document download for admins (spec §2 /admin "document downloads"; §8 toasts 'Document downloaded
 * successfully.' / 'Failed to download document.'). The file comes through the audited documents route.
 */
import { Button, type ButtonProps } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { notifyError, notifySuccess } from '../../notify.ts';
import { downloadDocument } from './admin-api.ts';

export function DocumentDownloadButton({
  documentId,
  documentName,
  label = documentName,
  ...props
}: { documentId: string; documentName: string; label?: string } & ButtonProps) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="light"
      size="compact-sm"
      leftSection={<IconDownload size={14} aria-hidden="true" />}
      loading={busy}
      aria-label={`Download ${documentName}`}
      onClick={async () => {
        setBusy(true);
        try {
          await downloadDocument(documentId, documentName);
          notifySuccess('Success', 'Document downloaded successfully.');
        } catch {
          notifyError('Error', 'Failed to download document.');
        } finally {
          setBusy(false);
        }
      }}
      {...props}
    >
      {label}
    </Button>
  );
}
