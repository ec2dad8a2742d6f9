/**
 * Documents of one application (spec §7 documents and storage; issue 4): list, upload with progress
 * (XMLHttpRequest, whose upload events report bytes sent), delete. After an upload or a delete the
 * list and the applications (the dashboard's Documents check) are reloaded (spec §4).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { documentListResponseSchema, documentResponseSchema } from '../../../domain/api/documents.ts';
import type { DocumentType } from '../../../domain/sections/documents.ts';
import { api, uploadWithProgress } from '../../api.ts';

/** A document as the API returns it (domain/api/documents.ts). */
export type UploadedDocument = z.infer<typeof documentResponseSchema>;
type DocumentList = z.infer<typeof documentListResponseSchema>;

/** Spec §8: the message of an upload without an authenticated user. */
export const NOT_AUTHENTICATED_MESSAGE = 'User not authenticated';

export const documentsQueryKey = (applicationId: string) => ['documents', applicationId] as const;

export function useDocuments(applicationId: string) {
  return useQuery({
    queryKey: documentsQueryKey(applicationId),
    queryFn: async () =>
      (await api<DocumentList>('GET', `/api/applications/${encodeURIComponent(applicationId)}/documents`))
        .documents,
  });
}

/**
 * POST the multipart upload (documentType first, then the file, as the server requires).
 * @param onProgress percent of the body sent, 0-100
 * @throws ApiError with the server's message; 401 carries 'User not authenticated'
 */
export function uploadDocumentRequest(
  applicationId: string,
  documentType: DocumentType,
  file: File,
  onProgress: (percent: number) => void,
): Promise<UploadedDocument> {
  const form = new FormData();
  form.append('documentType', documentType);
  form.append('file', file, file.name);
  return uploadWithProgress<UploadedDocument>(
    `/api/applications/${encodeURIComponent(applicationId)}/documents`,
    form,
    onProgress,
    NOT_AUTHENTICATED_MESSAGE,
  );
}

function useInvalidateDocuments(applicationId: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: documentsQueryKey(applicationId) }),
      queryClient.invalidateQueries({ queryKey: ['applications'] }),
      queryClient.invalidateQueries({ queryKey: ['application', applicationId] }),
    ]);
}

export function useUploadDocument(applicationId: string) {
  const invalidate = useInvalidateDocuments(applicationId);
  return useMutation({
    mutationFn: (input: { documentType: DocumentType; file: File; onProgress: (percent: number) => void }) =>
      uploadDocumentRequest(applicationId, input.documentType, input.file, input.onProgress),
    onSuccess: invalidate,
  });
}

export function useDeleteDocument(applicationId: string) {
  const invalidate = useInvalidateDocuments(applicationId);
  return useMutation({
    mutationFn: (documentId: string) =>
      api<void>(
        'DELETE',
        `/api/applications/${encodeURIComponent(applicationId)}/documents/${encodeURIComponent(documentId)}`,
      ),
    onSuccess: invalidate,
  });
}
