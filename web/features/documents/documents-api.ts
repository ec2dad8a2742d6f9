/**
 * Documents of one application (spec §7 documents and storage; issue 4): list, upload with progress
 * (XMLHttpRequest, whose upload events report bytes sent), delete. After an upload or a delete the
 * list and the applications (the dashboard's Documents check) are reloaded (spec §4).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { documentListResponseSchema, documentResponseSchema } from '../../../domain/api/documents.ts';
import type { ErrorResponse } from '../../../domain/app-error.ts';
import type { DocumentType } from '../../../domain/sections/documents.ts';
import { ApiError, api } from '../../api.ts';

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
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/applications/${encodeURIComponent(applicationId)}/documents`);
    xhr.setRequestHeader('accept', 'application/json');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      let body: unknown;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status === 201) {
        onProgress(100);
        resolve(body as UploadedDocument);
        return;
      }
      const error = (body ?? {}) as Partial<ErrorResponse>;
      const message =
        xhr.status === 401
          ? NOT_AUTHENTICATED_MESSAGE
          : error.message || `The upload failed (${xhr.status}).`;
      reject(new ApiError(xhr.status, error.code ?? 'internal', message));
    };
    xhr.onerror = () =>
      reject(new ApiError(0, 'network', 'Cannot reach the server. Check your connection and try again.'));
    xhr.send(form);
  });
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
