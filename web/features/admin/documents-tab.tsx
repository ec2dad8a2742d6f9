/**
 * The 'All Documents' tab (spec §2 /admin; §7 all documents, newest first): every document with its
 * owner and a download, paged on the server and filtered by the same name/email search as the users.
 */
import { Stack, Table, Text } from '@mantine/core';
import { documentTypeLabel, formatFileSizeMb } from '../../../domain/sections/documents.ts';
import { InlineLoader } from '../../components/inline-loader.tsx';
import { formatDate } from '../../format.ts';
import type { DocumentListItem, PageInfo } from './admin-api.ts';
import { DocumentDownloadButton } from './document-download-button.tsx';
import { ListPager } from './list-pager.tsx';

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
        <Table.ScrollContainer minWidth={720}>
          <Table striped highlightOnHover>
            <Table.Caption>All documents, newest first</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Document</Table.Th>
                <Table.Th scope="col">Type</Table.Th>
                <Table.Th scope="col">Size</Table.Th>
                <Table.Th scope="col">Owner</Table.Th>
                <Table.Th scope="col">Uploaded</Table.Th>
                <Table.Th scope="col">Download</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.documents.map((d) => (
                <Table.Tr key={d.id}>
                  <Table.Td>{d.documentName}</Table.Td>
                  <Table.Td>{documentTypeLabel[d.documentType] ?? d.documentType}</Table.Td>
                  <Table.Td>{formatFileSizeMb(d.fileSize)}</Table.Td>
                  <Table.Td>
                    {d.owner ? (
                      <>
                        <Text size="sm">
                          {d.owner.firstName} {d.owner.lastName}
                        </Text>
                        <Text size="xs" c="dimmed">
                          {d.owner.email}
                        </Text>
                      </>
                    ) : (
                      '—'
                    )}
                  </Table.Td>
                  <Table.Td>{formatDate(d.uploadedAt)}</Table.Td>
                  <Table.Td>
                    <DocumentDownloadButton
                      documentId={d.id}
                      documentName={d.documentName}
                      label="Download"
                    />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
