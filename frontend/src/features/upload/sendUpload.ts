import { CSRF_HEADER } from '../../api/baseQuery';
import type { UploadAnswer } from '../../api/mediaTypes';

export const UPLOAD_FAILED_FALLBACK = 'There was an error uploading your file';

export interface UploadCallbacks {
  /** Bytes of the request body sent so far. */
  onProgress(loaded: number, total: number): void;
  /** The whole body is sent; the server is now checking the file. */
  onSent(): void;
}

/**
 * POST /api/upload as multipart (field "audio") with real upload progress, which fetch cannot report,
 * hence XMLHttpRequest. Rejects with the server's message, or
 * UPLOAD_FAILED_FALLBACK when there is none (network error, abort, an answer that is not JSON).
 */
export function sendUpload(file: File, callbacks: UploadCallbacks): Promise<UploadAnswer> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/upload');
    xhr.withCredentials = true;
    xhr.setRequestHeader(CSRF_HEADER, '1');
    xhr.responseType = 'text';
    xhr.upload.onprogress = (event) => callbacks.onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    xhr.upload.onload = () => callbacks.onSent();
    xhr.onload = () => {
      if (xhr.status === 201) {
        try {
          resolve(JSON.parse(xhr.responseText) as UploadAnswer);
        } catch {
          reject(new Error(UPLOAD_FAILED_FALLBACK));
        }
        return;
      }
      reject(new Error(serverMessage(xhr.responseText) ?? UPLOAD_FAILED_FALLBACK));
    };
    xhr.onerror = () => reject(new Error(UPLOAD_FAILED_FALLBACK));
    xhr.onabort = () => reject(new Error(UPLOAD_FAILED_FALLBACK));
    const form = new FormData();
    form.append('audio', file, file.name);
    xhr.send(form);
  });
}

function serverMessage(body: string): string | null {
  try {
    const message = (JSON.parse(body) as { message?: unknown }).message;
    return typeof message === 'string' && message ? message : null;
  } catch {
    return body.trim() || null;
  }
}
