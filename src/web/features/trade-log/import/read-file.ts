import { fileTooLargeMessage, MAX_IMPORT_BYTES } from '../../../../domain/importers';

export class FileReadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FileReadError';
  }
}

/** A file over the server's limit is refused before a byte is read or sent (the server refuses it too, with 413). */
export function checkFileSize(file: File): string | null {
  return file.size > MAX_IMPORT_BYTES ? fileTooLargeMessage() : null;
}

/**
 * Reads the file's bytes, reporting progress (0-100) for large files. The bytes go to the server as they are, so it
 * can tell UTF-8 from UTF-16 and a CSV from a workbook; the browser does not interpret them.
 */
export function readFileBytes(file: File, onProgress: (percent: number) => void): Promise<ArrayBuffer> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    reader.onload = () => {
      onProgress(100);
      resolve(reader.result as ArrayBuffer);
    };
    reader.onerror = () => reject(new FileReadError('Failed to read file'));
    reader.onabort = () => reject(new FileReadError('Failed to read file'));
    reader.readAsArrayBuffer(file);
  });
}
