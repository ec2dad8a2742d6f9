/**
 * The provider's PDFs of an appeal (issue 50 item 8): while the provider writes the appeal, 'Attach PDF' (a PDF of up to
 * 10 MB, at most five; the server checks again) with upload progress, the server's message under the
 * button when it refuses a file, and 'Remove' with a confirmation. 'Request Appeal' takes every file
 * attached; after that they can no longer be removed.
 */
import { Button, FileButton, Progress, Stack, Text } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { AppealAttachmentDto } from '../../../domain/api/review.ts';
import { APPEAL_ATTACHMENTS_MAX } from '../../../domain/committee/decision-letters.ts';
import { api, uploadWithProgress } from '../../api.ts';
import { AppealAttachmentList } from '../../components/appeal-attachment-list.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';

const base = (applicationId: string) =>
  `/api/applications/${encodeURIComponent(applicationId)}/appeal/attachments`;

/** The provider's files for the appeal being written: attach, list, remove. */
export function AppealAttachmentsField({
  applicationId,
  attachments,
}: {
  applicationId: string;
  attachments: readonly AppealAttachmentDto[];
}) {
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['applications'] });
  const attach = useMutation({
    mutationFn: ({ file, onProgress }: { file: File; onProgress: (p: number) => void }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return uploadWithProgress<AppealAttachmentDto>(base(applicationId), form, onProgress);
    },
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: (attachmentId: string) =>
      api<void>('DELETE', `${base(applicationId)}/${encodeURIComponent(attachmentId)}`),
    onSettled: refresh,
  });
  const [removing, setRemoving] = useState<AppealAttachmentDto | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const progressId = useId();
  const full = attachments.length >= APPEAL_ATTACHMENTS_MAX;

  const upload = (file: File | null) => {
    if (!file) return;
    setRefusal(null);
    setPercent(0);
    attach.mutate(
      { file, onProgress: setPercent },
      {
        onSuccess: () => notifySuccess('File Attached', `${file.name} is attached to your appeal.`),
        onError: (error) => setRefusal(error.message),
        onSettled: () => setPercent(null),
      },
    );
  };

  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        Attachments (optional)
      </Text>
      <Text size="xs" c="dimmed">
        PDF files of up to 10 MB, at most {APPEAL_ATTACHMENTS_MAX}: a board letter, a court order, a
        certificate. The committee reads them with your statement.
      </Text>
      <AppealAttachmentList attachments={attachments} onRemove={setRemoving} />
      <div>
        <FileButton onChange={upload} accept=".pdf,application/pdf" disabled={full}>
          {(props) => (
            <Button
              {...props}
              size="xs"
              variant="default"
              leftSection={<IconPaperclip size={14} aria-hidden="true" />}
              loading={attach.isPending}
              disabled={full}
            >
              Attach PDF
            </Button>
          )}
        </FileButton>
      </div>
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
        title="Remove attachment"
        confirmLabel="Remove"
        busy={remove.isPending}
        onCancel={() => setRemoving(null)}
        onConfirm={() =>
          removing &&
          remove.mutate(removing.id, {
            onSuccess: () =>
              notifySuccess('File Removed', `${removing.fileName} is removed from your appeal.`),
            onError: (error) => notifyError('File Not Removed', error.message),
            onSettled: () => setRemoving(null),
          })
        }
      >
        Remove <strong>{removing?.fileName}</strong> from your appeal? The file is deleted.
      </ConfirmDialog>
    </Stack>
  );
}
