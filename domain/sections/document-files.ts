/**
 * The document types, accepted file types and size limits of section 11 (spec §2 "Documents
 * screen", §5, §9), without zod: the landing page states them before anyone signs in, and its chunk
 * should not load the schemas (issue 18). documents.ts re-exports all of it beside the schema.
 */
export const documentTypes = [
  'cv_resume',
  'medical_license',
  'dea_license',
  'malpractice_insurance',
  'diploma',
  'transcript',
  'vaccination_record',
  'background_check',
  'references',
  'other',
] as const;
export type DocumentType = (typeof documentTypes)[number];
export const documentTypeLabel: Record<DocumentType, string> = {
  cv_resume: 'CV / Resume',
  medical_license: 'Medical License',
  dea_license: 'DEA License',
  malpractice_insurance: 'Malpractice Insurance',
  diploma: 'Diploma',
  transcript: 'Transcript',
  vaccination_record: 'Vaccination Record',
  background_check: 'Background Check',
  references: 'References',
  other: 'Other',
};

/** Spec §5 error when a file is chosen before a document type. */
export const DOCUMENT_TYPE_REQUIRED_MESSAGE = 'Please select a document type first';

/** Accepted file extensions (spec §5, §9) and the MIME type each must carry. */
export const documentMimeTypeByExtension = {
  pdf: 'application/pdf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
} as const;
export type DocumentExtension = keyof typeof documentMimeTypeByExtension;
export const acceptedDocumentExtensions = Object.keys(documentMimeTypeByExtension) as DocumentExtension[];
export type DocumentMimeType = (typeof documentMimeTypeByExtension)[DocumentExtension];
/** The accepted MIME types, each once (jpg and jpeg share image/jpeg). */
export const acceptedDocumentMimeTypes: readonly DocumentMimeType[] = [
  ...new Set(Object.values(documentMimeTypeByExtension)),
];

/** Upload maximum stated on screen (spec §9: 10MB), in bytes; enforced by the server too. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** Most documents one application may hold (issue 10 item 5). */
export const MAX_DOCUMENTS_PER_APPLICATION = 100;
/** Most bytes of documents one application may hold: 500 MB (issue 10 item 5). */
export const MAX_DOCUMENT_BYTES_PER_APPLICATION = 500 * 1024 * 1024;

/** The refusal when an application already holds MAX_DOCUMENTS_PER_APPLICATION documents. */
export const DOCUMENT_COUNT_LIMIT_MESSAGE = `An application can hold at most ${MAX_DOCUMENTS_PER_APPLICATION} documents. Delete one you no longer need, then upload again.`;
/** The refusal when a file would take the application past MAX_DOCUMENT_BYTES_PER_APPLICATION. */
export const DOCUMENT_TOTAL_SIZE_LIMIT_MESSAGE =
  'An application can hold at most 500 MB of documents, and this file would go past that. Delete documents you no longer need, or upload a smaller file.';
/** Longest stored display name, in characters. */
export const DOCUMENT_NAME_MAX = 255;

/** The accepted, lower-cased extension of a file name, or null when it is not accepted. */
export function documentExtension(fileName: string): DocumentExtension | null {
  const dot = fileName.lastIndexOf('.');
  if (dot < 0) return null;
  const extension = fileName.slice(dot + 1).toLowerCase();
  return Object.hasOwn(documentMimeTypeByExtension, extension) ? (extension as DocumentExtension) : null;
}

/**
 * Object key in the provider-documents bucket (spec §7): `{userId}/{documentType}/{timestamp}.{extension}`.
 * @param timestamp milliseconds since the epoch (Date.now()) at upload time
 */
export function documentObjectKey(
  userId: string,
  documentType: DocumentType,
  timestamp: number,
  extension: DocumentExtension,
): string {
  return `${userId}/${documentType}/${timestamp}.${extension}`;
}

/**
 * Display name of an uploaded file: the base name only (no client path), without control or
 * bidirectional-override characters (which can disguise an extension), whitespace collapsed,
 * at most 255 characters; 'document' when nothing is left.
 */
export function sanitizeDocumentName(fileName: string): string {
  const base = fileName.split(/[/\\]/).pop() ?? '';
  const cleaned = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
    .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, DOCUMENT_NAME_MAX)
    .trim();
  return cleaned || 'document';
}

/** Size in MB with two decimals, as the documents list shows it (spec §2, §9), e.g. '1.25 MB'. */
export function formatFileSizeMb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(2)} MB`;
}
