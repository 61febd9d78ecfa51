/**
 * The answer forms' files on the server (server/http/files): `uploadFile` sends one chosen file for
 * a task's file field and answers the reference the answer gives (a refusal is an ApiError with the
 * server's code and sentence); `fileUrl` is where a referenced file downloads.
 */
import type { FileRef } from '../../vocab/answer-fields.ts';
import type { ErrorCode } from '../../vocab/server-codes.ts';
import { ApiError, toApiError } from './api-error.ts';
import { CSRF_HEADERS } from './api-client.ts';

const FILES_URL = '/api/files';

export function fileUrl(id: string): string {
  return `${FILES_URL}/${encodeURIComponent(id)}`;
}

export async function uploadFile(target: { pid: string; tid: string; field: string }, file: File): Promise<FileRef> {
  const query = new URLSearchParams({ field: target.field, name: file.name });
  let res: Response;
  try {
    res = await fetch(`${FILES_URL}/${encodeURIComponent(target.pid)}/${encodeURIComponent(target.tid)}?${query}`, {
      method: 'POST',
      credentials: 'include',
      headers: { ...CSRF_HEADERS, 'content-type': file.type || 'application/octet-stream' },
      body: file,
    });
  } catch (err) {
    throw toApiError(err);
  }
  const body = (await res.json().catch(() => null)) as { error?: { code: ErrorCode; message: string; details?: unknown } } | FileRef | null;
  if (res.ok && body && 'file' in body) return body;
  const error = body && 'error' in body ? body.error : undefined;
  if (!error) throw new ApiError('unavailable', 'The server sent an answer the studio cannot read.');
  throw new ApiError(error.code, error.message, error.details, res.status);
}
