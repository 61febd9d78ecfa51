/**
 * `POST /api/files/<pid>/<tid>?field=<answer field>&name=<file name>`: one file for an open
 * interrupt task's file field (vocab/answer-fields.ts), the raw bytes as the body and its media
 * type as `Content-Type`. Checked in this order, each refusal coded, before anything is stored:
 * the caller's `operate` permission (and the CSRF header when signed in by cookie), the field and
 * name given, the task an interrupt still waiting, the caller allowed to answer it, the field a
 * file field, the media type one its `accept` lists, the size within its `maxBytes` (the
 * `Content-Length` before reading, the bytes while reading). Answers `201 { file, name, size, type }`,
 * the reference the answer gives. Audited as `file.upload`.
 */
import type { IncomingMessage } from 'node:http';
import { answerFields, isMediaType, type FieldSpec, type FileRef } from '../../../vocab/answer-fields.ts';
import { fileProblems, fileTooLarge } from '../../../vocab/answer-problems.ts';
import type { Caller } from '../../auth/types.ts';
import { ActError } from '../../engine/errors.ts';
import { audited } from '../../api/audit.ts';
import type { ApiServices } from '../../api/context.ts';
import { requireMayAct } from '../../api/inbox-access.ts';
import { readBody } from '../read-body.ts';

const IRQ = 'acts.core.irq';
const MAX_NAME = 255;

/** The file's name as given, without any directory part; refused when missing or too long. */
function fileName(raw: string | null): string {
  const name = (raw ?? '').split(/[/\\]/).pop()!.trim();
  // eslint-disable-next-line no-control-regex
  if (!name || name.length > MAX_NAME || /[\x00-\x1f\x7f]/.test(name)) {
    throw new ActError('file.invalid', `give the file's name as ?name=<name> (1 to ${MAX_NAME} characters, no control characters)`);
  }
  return name;
}

/** The upload's media type (without parameters); `application/octet-stream` when it says none we can read. */
function mediaType(header: string | undefined): string {
  const type = (header ?? '').split(';')[0].trim().toLowerCase();
  return isMediaType(type) && !type.endsWith('/*') ? type : 'application/octet-stream';
}

/** The file field `field` of the waiting interrupt task, or the refusal saying why there is none. */
async function fileField(services: ApiServices, caller: Caller, pid: string, tid: string, field: string): Promise<FieldSpec> {
  const task = await services.engine.tasks.get(pid, tid);
  if (task.uses !== IRQ || task.state !== 'interrupted') {
    throw new ActError('action.refused', `task '${tid}' of process '${pid}' is not an interrupt waiting for an answer (it is ${task.state}): nothing to upload a file for`);
  }
  await requireMayAct(services.engine, caller, pid, tid);
  const fields = [...answerFields(task.params).values()].filter((f) => f.kind === 'file');
  const spec = fields.find((f) => f.key === field);
  if (spec) return spec;
  const which = fields.length ? `its file fields are ${fields.map((f) => `'${f.key}'`).join(', ')}` : 'it has none';
  throw new ActError('file.invalid', `task '${tid}' has no file field '${field}' in its answer form: ${which}`);
}

function refuseType(spec: FieldSpec, name: string, type: string): void {
  const problems = fileProblems(spec, { file: '-', name, size: 0, type }).filter((p) => p.code === 'file_type');
  if (problems.length) throw new ActError('file.invalid', problems[0].message, { problems });
}

function tooLarge(spec: FieldSpec): ActError {
  const problem = fileTooLarge(spec);
  return new ActError('file.too_large', problem.message, { problems: [problem], maxBytes: spec.maxBytes });
}

export async function uploadFile(services: ApiServices, caller: Caller, req: IncomingMessage, url: URL, pid: string, tid: string): Promise<FileRef> {
  const field = url.searchParams.get('field') ?? '';
  const type = mediaType(req.headers['content-type']);
  const target = { action: 'file.upload', target: `${pid}/${tid}`, detail: { field, name: url.searchParams.get('name'), type }, ids: { pid, tid } };
  return audited(services, caller, target, async () => {
    if (!field) throw new ActError('file.invalid', 'name the answer field the file is for as ?field=<field>');
    const name = fileName(url.searchParams.get('name'));
    const spec = await fileField(services, caller, pid, tid, field);
    refuseType(spec, name, type);
    const max = spec.maxBytes!;
    if (Number(req.headers['content-length'] ?? 0) > max) throw tooLarge(spec);
    const bytes = await readBody(req, max, () => tooLarge(spec));
    const row = await services.engine.files.put({ pid, tid, field, name, type, bytes, create_by: caller.name });
    return { file: row.id, name: row.name, size: row.size, type: row.type };
  });
}
