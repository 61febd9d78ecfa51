/**
 * `GET /api/files/<id>`: an uploaded file (server/runtime/answer-files.ts) to anyone with `read`
 * permission, always as an attachment with its name, under `nosniff` and a sandboxing content
 * security policy, so no uploaded page or script runs in the studio's origin.
 */
import type { ServerResponse } from 'node:http';
import { isMediaType } from '../../../vocab/answer-fields.ts';
import { ActError } from '../../engine/errors.ts';
import type { ApiServices } from '../../api/context.ts';

/** `Content-Disposition` of an attachment named `name` (an ASCII fallback and the UTF-8 name). */
export function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

export async function downloadFile(services: ApiServices, id: string, res: ServerResponse): Promise<void> {
  const row = await services.engine.files.get(id);
  if (!row) throw new ActError('file.not_found', `no uploaded file '${id}': its run may have been deleted`);
  const bytes = Buffer.from(row.data, 'base64');
  res.writeHead(200, {
    'content-type': isMediaType(row.type) ? row.type : 'application/octet-stream',
    'content-length': String(bytes.length),
    'content-disposition': attachment(row.name),
    'x-content-type-options': 'nosniff',
    'content-security-policy': "sandbox; default-src 'none'",
    'cache-control': 'private, no-store',
  });
  res.end(bytes);
}
