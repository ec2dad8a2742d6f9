/**
 * The evidence files of one checklist item (issue 13, decision 018 "Evidence files"; administrators
 * only): each file with its name, size, date and 'Download' (an audited admin route); while the
 * application is Under Review, 'Attach Evidence' (pdf, doc, docx, jpg, jpeg, png up to 10 MB: the
 * documents' rules, checked again by the server) with upload progress, the server's message under
 * the button when it refuses a file, a toast when it is attached, and 'Remove' (the trash icon
 * of every row delete, named 'Remove <file>') with a confirmation.
 */
import { ActionIcon, Button, FileButton, Group, Progress, Stack, Text } from '@mantine/core';
import { IconPaperclip, IconTrash } from '@tabler/icons-react';
import { useId, useState } from 'react';
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
  /** Under Review: files can be attached and removed. */
  editable: boolean;
}) {
  const attach = useAttachEvidence(applicationId);
  const remove = useRemoveEvidence(applicationId);
  const [removing, setRemoving] = useState<EvidenceDto | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const progressId = useId();

  const upload = (file: File | null) => {
    if (!file) return;
    setRefusal(null);
    setPercent(0);
    attach.mutate(
      { itemId, file, onProgress: setPercent },
      {
        onSuccess: () => notifySuccess('Evidence Attached', `${file.name} is attached to ${itemName}.`),
        onError: (error) => setRefusal(error.message),
        onSettled: () => setPercent(null),
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
            <Group key={e.id} component="li" gap="xs" wrap="wrap">
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {e.fileName}
              </Text>
              <Text size="xs" c="dimmed" style={{ flexShrink: 0 }}>
                {formatFileSizeMb(e.fileSize)}, {formatDate(e.uploadedAt)}
              </Text>
              <Button
                component="a"
                href={e.downloadUrl}
                download={e.fileName}
                size="compact-xs"
                variant="subtle"
                aria-label={`Download ${e.fileName}`}
              >
                Download
              </Button>
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
      {percent !== null && (
        <Stack gap={2} maw={320}>
          <Text size="xs" id={progressId}>
            {percent < 100 ? `Uploading... ${percent}%` : 'Checking the file...'}
          </Text>
          <Progress.Root size="sm">
            <Progress.Section value={percent} aria-labelledby={progressId} />
          </Progress.Root>
        </Stack>
      )}
      {refusal && (
        <Text size="sm" c="red.9" role="alert">
          {refusal}
        </Text>
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
