/**
 * The files of answer forms at `/api/files/` (beside the tRPC API, whose bodies are bounded at
 * 1 MiB): `POST /api/files/<pid>/<tid>?field=&name=` uploads one (upload.ts), `GET /api/files/<id>`
 * downloads one (download.ts). The caller is resolved as the API does (bearer token or session
 * cookie; a cookie-signed upload needs `x-acts-csrf: 1`). Refusals answer
 * `{ error: { code, message, details? } }` with the code's HTTP status.
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Permission } from '../../../vocab/roles.ts';
import { codeTraits } from '../../../vocab/server-codes.ts';
import { bearerToken, CSRF_HEADER, resolveCaller, sessionFromCookies, type ApiServices } from '../../api/context.ts';
import { publicError, toActError } from '../../api/errors.ts';
import { requirePermission } from '../../api/policy.ts';
import type { Caller } from '../../auth/types.ts';
import { ActError } from '../../engine/errors.ts';
import { sendJson } from '../probes.ts';
import { downloadFile } from './download.ts';
import { uploadFile } from './upload.ts';

export const FILES_BASE = '/api/files/';

async function callerWith(services: ApiServices, req: IncomingMessage, permission: Permission): Promise<Caller> {
  const caller = requirePermission(await resolveCaller(services.auth, bearerToken(req.headers.authorization), sessionFromCookies(req.headers.cookie)), permission);
  if (permission !== 'read' && caller.via === 'session' && req.headers[CSRF_HEADER] !== '1') {
    throw new ActError('auth.forbidden', `an upload signed in by cookie needs the header ${CSRF_HEADER}: 1`);
  }
  return caller;
}

async function serve(services: ApiServices, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://files');
  const parts = url.pathname.slice(FILES_BASE.length).split('/').map((p) => decodeURIComponent(p));
  if (req.method === 'POST' && parts.length === 2 && parts.every(Boolean)) {
    const caller = await callerWith(services, req, 'operate');
    sendJson(res, 201, await uploadFile(services, caller, req, url, parts[0], parts[1]));
  } else if ((req.method === 'GET' || req.method === 'HEAD') && parts.length === 1 && parts[0]) {
    await callerWith(services, req, 'read');
    await downloadFile(services, parts[0], res);
  } else {
    throw new ActError('input.invalid', `files are uploaded with POST ${FILES_BASE}<pid>/<tid>?field=<field>&name=<name> and downloaded with GET ${FILES_BASE}<id>`);
  }
}

export function filesEndpoint(services: ApiServices): RequestListener {
  return async (req, res) => {
    try {
      await serve(services, req, res);
    } catch (err) {
      const act = toActError(err);
      if (act.code === 'internal') services.log.error({ err: err instanceof Error ? err.message : String(err) }, 'file endpoint failed');
      const status = codeTraits(act.code)?.http ?? 500;
      // a refused upload's body is not read: the connection cannot be used again
      if (req.method === 'POST') res.setHeader('connection', 'close');
      sendJson(res, status, { error: publicError(act) });
    }
  };
}
