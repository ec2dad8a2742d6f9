/**
 * The checks an uploaded file passes on its way to storage (issue 4, spec §5 and §9), as one
 * streaming Transform: it counts bytes against the 10 MB limit, hashes them (SHA-256), and holds back
 * only the first 4,100 bytes until their magic bytes show the content matches the extension.
 * Memory per upload: the sniffed head plus one chunk, whatever the file size.
 */
import { createHash, type Hash } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { AppError } from '../../domain/app-error.ts';
import { type DocumentExtension, MAX_DOCUMENT_BYTES } from '../../domain/sections/documents.ts';

/** Bytes file-type needs to recognise the accepted formats (its `reasonableDetectionSizeInBytes`). */
const SNIFF_BYTES = 4100;

/**
 * What file-type may report for each accepted extension: a .doc is an OLE compound file ('cfb'); a
 * .docx is a zip whose Word parts file-type may or may not find within the sniffed head.
 */
const detectedTypesByExtension: Record<DocumentExtension, readonly string[]> = {
  pdf: ['pdf'],
  doc: ['cfb'],
  docx: ['docx', 'zip'],
  jpg: ['jpg'],
  jpeg: ['jpg'],
  png: ['png'],
};

export const FILE_TOO_LARGE_MESSAGE = 'The file is larger than 10 MB. Choose a file of 10 MB or less.';
export const CONTENT_MISMATCH_MESSAGE =
  'The file content does not match its extension. Upload a real PDF, Word document (DOC, DOCX), JPG or PNG file.';
export const UNSUPPORTED_EXTENSION_MESSAGE = 'Only PDF, DOC, DOCX, JPG, JPEG and PNG files can be uploaded.';
export const EMPTY_FILE_MESSAGE = 'The file is empty. Choose a file that has content.';

/** 413 for a file over the limit (spec §9). */
export function fileTooLargeError(): AppError {
  return new AppError('payload_too_large', FILE_TOO_LARGE_MESSAGE);
}

/**
 * Pipe the uploaded bytes through this; read `size` and `sha256` after it ends.
 * Errors (AppError): 413 payload_too_large past `maxBytes`; 415 unsupported_media_type when the
 * magic bytes do not match `extension` (a renamed .exe, a text file named .pdf); 400 for an empty file.
 */
export class DocumentIntake extends Transform {
  /** Bytes seen so far. */
  size = 0;
  /** Hex SHA-256 of all bytes; set when the stream ends. */
  sha256: string | undefined;
  private readonly hash: Hash = createHash('sha256');
  private head: Buffer[] = [];
  private headBytes = 0;
  private sniffed = false;

  private readonly extension: DocumentExtension;
  private readonly maxBytes: number;

  constructor(extension: DocumentExtension, maxBytes: number = MAX_DOCUMENT_BYTES) {
    super();
    this.extension = extension;
    this.maxBytes = maxBytes;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(fileTooLargeError());
    } else if (this.sniffed) {
      this.hash.update(chunk);
      callback(null, chunk);
    } else {
      this.hash.update(chunk);
      this.head.push(chunk);
      this.headBytes += chunk.length;
      if (this.headBytes < SNIFF_BYTES) callback();
      else this.releaseHead().then(() => callback(), callback);
    }
  }

  override _flush(callback: TransformCallback): void {
    if (this.size === 0) {
      callback(new AppError('bad_request', EMPTY_FILE_MESSAGE));
      return;
    }
    const done = () => {
      this.sha256 = this.hash.digest('hex');
      callback();
    };
    if (this.sniffed) done();
    else this.releaseHead().then(done, callback);
  }

  /** Check the head's magic bytes, then pass it on. */
  private async releaseHead(): Promise<void> {
    const head = Buffer.concat(this.head);
    this.head = [];
    const detected = await fileTypeFromBuffer(head.subarray(0, SNIFF_BYTES));
    if (!detected || !detectedTypesByExtension[this.extension].includes(detected.ext)) {
      throw new AppError('unsupported_media_type', CONTENT_MISMATCH_MESSAGE);
    }
    this.sniffed = true;
    this.push(head);
  }
}
