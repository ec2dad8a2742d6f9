/**
 * The evidence files of one checklist item (issue 13): each file with its size and date and a
 * download link (an audited admin route); while the application is Under Review, 'Attach Evidence'
 * (pdf, doc, docx, jpg, jpeg, png up to 10 MB: the documents' rules, checked again by the server) and
 * 'Remove' with a confirmation.
 */
import { ActionIcon, Anchor, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { acceptedDocumentExtensions, formatFileSizeMb } from '../../../domain/sections/documents.ts';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { formatDate } from '../../format.ts';
import { notifyError, notifySuccess } from '../../notify.ts';
import { type EvidenceDto, useAttachEvidence, useRemoveEvidence } from './review-api.ts';

const accept = acceptedDocumentExtensions.map((e) => `.${e}`).join(',');

export function EvidenceFiles({
  applicationId,
  itemId,
  itemName,
  evidence,
  editable,
}: {
  applicationId: string;
  itemId: string;
  /** The item's target, for the controls' accessible names. */
  itemName: string;
  evidence: readonly EvidenceDto[];
  editable: boolean;
}) {
  const attach = useAttachEvidence(applicationId);
  const remove = useRemoveEvidence(applicationId);
  const [removing, setRemoving] = useState<EvidenceDto | null>(null);

  const upload = (file: File | null) => {
    if (!file) return;
    attach.mutate(
      { itemId, file },
      {
        onSuccess: () => notifySuccess('Evidence Attached', `${file.name} is attached to ${itemName}.`),
        onError: (error) => notifyError('Evidence Not Attached', error.message),
      },
    );
  };

  if (evidence.length === 0 && !editable) return null;
  return (
    <Stack gap={4}>
      {evidence.length > 0 && (
        <Stack
          gap={2}
          component="ul"
          p={0}
          m={0}
          style={{ listStyle: 'none' }}
          aria-label={`Evidence for ${itemName}`}
        >
          {evidence.map((e) => (
            <Group key={e.id} component="li" gap="xs" wrap="nowrap">
              <Anchor
                href={e.downloadUrl}
                download={e.fileName}
                size="sm"
                style={{ overflowWrap: 'anywhere' }}
              >
                {e.fileName}
              </Anchor>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {formatFileSizeMb(e.fileSize)}, {formatDate(e.uploadedAt)}
              </Text>
              {editable && (
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  size="sm"
                  aria-label={`Remove ${e.fileName}`}
                  onClick={() => setRemoving(e)}
                >
                  <IconTrash size={14} aria-hidden="true" />
                </ActionIcon>
              )}
            </Group>
          ))}
        </Stack>
      )}
      {editable && (
        <div>
          <FileButton onChange={upload} accept={accept}>
            {(props) => (
              <Button
                {...props}
                size="xs"
                variant="default"
                leftSection={<IconPaperclip size={14} aria-hidden="true" />}
                loading={attach.isPending}
                aria-label={`Attach Evidence to ${itemName}`}
              >
                Attach Evidence
              </Button>
            )}
          </FileButton>
        </div>
      )}
      <ConfirmDialog
        opened={removing !== null}
        title="Remove evidence"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () => notifySuccess('Evidence Removed', `${removing.fileName} is removed.`),
            onError: (error) => notifyError('Evidence Not Removed', error.message),
            onSettled: () => setRemoving(null),
          })
        }
      >
        Remove <strong>{removing?.fileName}</strong> from {itemName}? The file is deleted.
      </ConfirmDialog>
    </Stack>
  );
}
