/**
 * `/documents/:applicationId` (spec §2 documents screen, §5, §8, §9; issue 4): choose a document type,
 * then a file; the upload shows its progress; the list shows name, type, size in MB (two decimals), a
 * download and a delete with confirmation; 'Back to Dashboard' and 'Continue' return to /dashboard.
 * The checks here (type first, extension, 10MB) only spare a round trip: the server enforces them.
 * On the approved application whose credential is current the screen takes a credential update
 * (issue 29 item 4, as the dated sections do: `?update=1`, app/credential-update.ts
 * `useSectionEditing`): uploads open, deletes never (the approval rests on the files sent), and
 * 'Submit Update' sends the new files to the credentialing team.
 */
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Container,
  FileButton,
  Group,
  Modal,
  Progress,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { IconDownload, IconTrash, IconUpload } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import {
  acceptedDocumentExtensions,
  DOCUMENT_TYPE_REQUIRED_MESSAGE,
  type DocumentType,
  documentExtension,
  documentsSection,
  documentTypeLabel,
  documentTypes,
  formatFileSizeMb,
  MAX_DOCUMENT_BYTES,
} from '../../../domain/sections/documents.ts';
import type { SectionMessages } from '../../../domain/sections/section.ts';
import { ApiError, isNotFound } from '../../api.ts';
import { useSectionEditing } from '../../app/credential-update.ts';
import { ApplicationNotFound } from '../../components/application-not-found.tsx';
import { CopiedSectionConfirm } from '../../components/copied-section-confirm.tsx';
import { CredentialUpdateNotice } from '../../components/credential-update-notice.tsx';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { SectionLockNotice } from '../../components/section-lock-notice.tsx';
import { notifyError, notifySuccess } from '../../notify.ts';
import {
  type UploadedDocument,
  useDeleteDocument,
  useDocuments,
  useUploadDocument,
} from './documents-api.ts';

// Spec §8 toasts; the documents section defines all five (domain/sections/documents.ts).
const messages = documentsSection.messages as Required<SectionMessages>;
const ACCEPT = acceptedDocumentExtensions.map((extension) => `.${extension}`).join(',');
const typeOptions = documentTypes.map((value) => ({ value, label: documentTypeLabel[value] }));

/** Why a chosen file cannot be uploaded, or null when it may be sent. */
function precheck(file: File): string | null {
  if (!documentExtension(file.name)) return 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files can be uploaded.';
  if (file.size === 0) return 'The file is empty. Choose a file that has content.';
  if (file.size > MAX_DOCUMENT_BYTES) {
    return `The file is ${formatFileSizeMb(file.size)}. Choose a file of 10 MB or less.`;
  }
  return null;
}

interface UploadState {
  fileName: string;
  percent: number;
  done: boolean;
}

function UploadCard({ applicationId }: { applicationId: string }) {
  const [documentType, setDocumentType] = useState<DocumentType | null>(null);
  const [upload, setUpload] = useState<UploadState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const resetFileInput = useRef<() => void>(null);
  const mutation = useUploadDocument(applicationId);
  const progressLabelId = useId();

  const onFile = (file: File | null) => {
    resetFileInput.current?.(); // Choosing the same file again must fire a change again.
    if (!file) return;
    setProblem(null);
    if (!documentType) {
      notifyError('Error', DOCUMENT_TYPE_REQUIRED_MESSAGE);
      setProblem(DOCUMENT_TYPE_REQUIRED_MESSAGE);
      return;
    }
    const reason = precheck(file);
    if (reason) {
      notifyError('Error', messages.saveError);
      setProblem(reason);
      return;
    }
    setUpload({ fileName: file.name, percent: 0, done: false });
    mutation.mutate(
      {
        documentType,
        file,
        onProgress: (percent) => setUpload((u) => (u ? { ...u, percent } : u)),
      },
      {
        onSuccess: () => {
          setUpload((u) => (u ? { ...u, percent: 100, done: true } : u));
          notifySuccess('Success', messages.saveSuccess);
        },
        onError: (error) => {
          setUpload(null);
          setProblem(error instanceof ApiError ? error.message : 'The upload failed. Please try again.');
          notifyError('Error', messages.saveError);
        },
      },
    );
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="upload-title">
      <Stack>
        <Title order={2} size="h3" id="upload-title">
          Upload Document
        </Title>
        <Select
          label="Document Type"
          placeholder="Select document type"
          data={typeOptions}
          value={documentType}
          onChange={(value) => setDocumentType(value as DocumentType | null)}
          allowDeselect={false}
          maw={420}
        />
        <div>
          <FileButton
            onChange={onFile}
            accept={ACCEPT}
            resetRef={resetFileInput}
            disabled={mutation.isPending}
          >
            {(props) => (
              <Button
                {...props}
                leftSection={<IconUpload size={16} aria-hidden="true" />}
                loading={mutation.isPending}
                aria-describedby="upload-rules"
              >
                Choose File
              </Button>
            )}
          </FileButton>
          <Stack gap={0} mt="xs" id="upload-rules">
            <Text size="sm" c="dimmed">
              Accepted file types: PDF, DOC, DOCX, JPG, JPEG, PNG
            </Text>
            <Text size="sm" c="dimmed">
              Maximum file size: 10MB
            </Text>
          </Stack>
        </div>
        {problem && (
          <Alert color="red" variant="light" role="alert" title="The file was not uploaded">
            {problem}
          </Alert>
        )}
        {upload && (
          <div>
            <Group justify="space-between" mb={4}>
              <Text size="sm" id={progressLabelId}>
                {upload.done ? `Uploaded ${upload.fileName}` : `Uploading ${upload.fileName}`}
              </Text>
              <Text size="sm" fw={600} aria-hidden="true">
                {upload.percent}%
              </Text>
            </Group>
            <Progress.Root size="lg">
              <Progress.Section value={upload.percent} aria-labelledby={progressLabelId} />
            </Progress.Root>
          </div>
        )}
      </Stack>
    </Card>
  );
}

/** The list's columns (cards on phones, issue 17). */
const documentColumns: TableColumn<UploadedDocument>[] = [
  { header: 'Name', render: (d) => d.documentName },
  { header: 'Type', render: (d) => documentTypeLabel[d.documentType] },
  { header: 'Size', render: (d) => formatFileSizeMb(d.fileSize), noWrap: true },
];

function DocumentList({ applicationId, canDelete }: { applicationId: string; canDelete: boolean }) {
  const { data: documents, isPending, isError } = useDocuments(applicationId);
  const remove = useDeleteDocument(applicationId);
  const [pendingDelete, setPendingDelete] = useState<UploadedDocument | null>(null);

  useEffect(() => {
    if (isError) notifyError('Error', messages.loadError);
  }, [isError]);

  const confirmDelete = () => {
    if (!pendingDelete) return;
    remove.mutate(pendingDelete.id, {
      onSuccess: () => notifySuccess('Success', messages.deleteSuccess),
      onError: () => notifyError('Error', messages.deleteError),
      onSettled: () => setPendingDelete(null),
    });
  };

  return (
    <Card withBorder padding="lg" component="section" aria-labelledby="list-title">
      <Title order={2} size="h3" id="list-title" mb="md">
        Uploaded Documents
      </Title>
      {isPending ? (
        <InlineLoader size="sm" />
      ) : isError ? (
        <Text>We could not load the documents of this application. Reload the page to try again.</Text>
      ) : documents.length === 0 ? (
        <Text c="dimmed">No documents uploaded yet.</Text>
      ) : (
        <ResponsiveTable
          rows={documents}
          columns={documentColumns}
          rowKey={(d) => d.id}
          label="Uploaded Documents"
          minWidth={560}
          actions={(d) => (
            <>
              <ActionIcon
                component="a"
                href={d.downloadUrl}
                download={d.documentName}
                variant="subtle"
                aria-label={`Download ${d.documentName}`}
              >
                <IconDownload size={18} aria-hidden="true" />
              </ActionIcon>
              {canDelete && (
                <ActionIcon
                  variant="subtle"
                  color="red.9"
                  aria-label={`Delete ${d.documentName}`}
                  onClick={() => setPendingDelete(d)}
                >
                  <IconTrash size={18} aria-hidden="true" />
                </ActionIcon>
              )}
            </>
          )}
        />
      )}
      <Modal
        opened={pendingDelete !== null}
        onClose={() => !remove.isPending && setPendingDelete(null)}
        title="Delete document"
        closeButtonProps={{ 'aria-label': 'Close' }}
        centered
      >
        <Stack>
          <Text>
            Delete <strong>{pendingDelete?.documentName}</strong>? The file is removed for good.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setPendingDelete(null)} disabled={remove.isPending}>
              Cancel
            </Button>
            <Button color="red.9" onClick={confirmDelete} loading={remove.isPending}>
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Card>
  );
}

export default function DocumentsPage() {
  const { applicationId = '' } = useParams();
  const navigate = useNavigate();
  // Issue 17: an unknown or another person's application id shows no upload (query shared by its key).
  const documentsQuery = useDocuments(applicationId);
  // Issue 13: from completion on, uploads and deletes only when the open request names Documents.
  // Issue 29 item 4: an approved application's credential update opens uploads, never deletes.
  const { lock, updateMode } = useSectionEditing(applicationId, 'documents');
  const readOnly = lock.kind === 'loading' || lock.kind === 'locked';
  const canDelete = !readOnly && !updateMode?.active;
  if (isNotFound(documentsQuery.error)) {
    return (
      <main>
        <Container size="md" py="xl">
          <Stack>
            <Title order={1} size="h2">
              Documents
            </Title>
            <ApplicationNotFound />
          </Stack>
        </Container>
      </main>
    );
  }
  return (
    <main>
      <Container size="md" py="xl">
        <Stack>
          <div>
            <Title order={1} size="h2">
              Documents
            </Title>
            <Text c="dimmed">Upload your supporting documentation.</Text>
          </div>
          {updateMode ? (
            <CredentialUpdateNotice applicationId={applicationId} sectionKey="documents" mode={updateMode} />
          ) : (
            <SectionLockNotice lock={lock} />
          )}
          <CopiedSectionConfirm applicationId={applicationId} sectionKey="documents" />
          {!readOnly && <UploadCard applicationId={applicationId} />}
          <DocumentList applicationId={applicationId} canDelete={canDelete} />
          <Group justify="space-between">
            <Button variant="default" onClick={() => navigate('/dashboard')}>
              Back to Dashboard
            </Button>
            <Button onClick={() => navigate('/dashboard')}>Continue</Button>
          </Group>
        </Stack>
      </Container>
    </main>
  );
}
