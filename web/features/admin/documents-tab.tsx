/**
 * The 'All Documents' tab (spec §2 /admin; §7 all documents, newest first): every document with its
 * owner and a download, paged on the server and filtered by the same name/email search as the users.
 * A table on wide screens, one card per document on phones (issue 17).
 */
import { Stack, Text } from '@mantine/core';
import { documentTypeLabel, formatFileSizeMb } from '../../../domain/sections/documents.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { ListPager } from '../../components/list-pager.tsx';
import { ResponsiveTable, type TableColumn } from '../../components/responsive-table.tsx';
import { formatDate } from '../../format.ts';
import type { DocumentListItem, PageInfo } from './admin-api.ts';
import { DocumentDownloadButton } from './document-download-button.tsx';

const columns: TableColumn<DocumentListItem>[] = [
  { header: 'Document', render: (d) => d.documentName },
  { header: 'Type', render: (d) => documentTypeLabel[d.documentType] ?? d.documentType },
  { header: 'Size', render: (d) => formatFileSizeMb(d.fileSize), noWrap: true },
  {
    header: 'Owner',
    render: (d) =>
      d.owner ? (
        <>
          <Text size="sm" span display="block">
            {d.owner.firstName} {d.owner.lastName}
          </Text>
          <Text size="xs" c="dimmed" span display="block">
            {d.owner.email}
          </Text>
        </>
      ) : (
        '—'
      ),
  },
  { header: 'Uploaded', render: (d) => formatDate(d.uploadedAt), noWrap: true },
];

export function DocumentsTab({
  data,
  isFetching,
  onPageChange,
}: {
  data: (PageInfo & { documents: DocumentListItem[] }) | undefined;
  isFetching: boolean;
  onPageChange: (page: number) => void;
}) {
  if (!data) {
    return <InlineLoader />;
  }
  return (
    <Stack aria-busy={isFetching}>
      <ListPager info={data} noun={['document', 'documents']} onPageChange={onPageChange} />
      {data.documents.length > 0 && (
        <ResponsiveTable
          rows={data.documents}
          columns={columns}
          rowKey={(d) => d.id}
          label="All documents, newest first"
          caption
          striped
          minWidth={720}
          actionsHeader="Download"
          actions={(d) => (
            <DocumentDownloadButton documentId={d.id} documentName={d.documentName} label="Download" />
          )}
        />
      )}
    </Stack>
  );
}
