/**
 * The answer a task form gathers, checked in the browser exactly as the server will check it: the
 * blank required fields (vocab/answers.ts, one sentence naming them), then the shared check of the
 * values (vocab/answer-problems.ts: its sentences, under each field and together in the form's
 * alert), then the chosen files uploaded (components/data/files.ts) and their references put into
 * the answer — before anything is sent.
 * State: the inputs by field key (reset per task: the form is keyed by task), the blank fields,
 * the problems by field, the form's sentence, and the field whose file is being uploaded.
 */
'use client';
import { useState } from 'react';
import { answerProblems, problemsSentence } from '../../vocab/answer-problems.ts';
import { toApiError } from '../data/api-error.ts';
import { uploadFile } from '../data/files.ts';
import { blankRequired, initialInput, parseField, requiredSentence, type FieldInput, type FormField } from './form-fields.ts';

export type Checked = { ok: true; options: Record<string, unknown> } | { ok: false; focus?: string };

export function useAnswerForm(target: { pid: string; tid: string }, fields: FormField[], params: unknown) {
  const [inputs, setInputs] = useState<Record<string, FieldInput>>({});
  const [blank, setBlank] = useState<ReadonlySet<string>>(new Set());
  const [problems, setProblems] = useState<ReadonlyMap<string, string[]>>(new Map());
  const [invalid, setInvalid] = useState<string | null>(null);
  const [uploading, setUploading] = useState<string | null>(null);

  const valueOf = (f: FormField): FieldInput => (f.key in inputs ? inputs[f.key] : initialInput(f));
  /** A new input; what was said about the field's old value goes (the form's sentence stays until the next check). */
  const set = (key: string, value: FieldInput) => {
    setInputs((prev) => ({ ...prev, [key]: value }));
    setProblems((prev) => (prev.has(key) ? new Map([...prev].filter(([k]) => k !== key)) : prev));
    setBlank((prev) => (prev.has(key) ? new Set([...prev].filter((k) => k !== key)) : prev));
  };

  /** Says what is wrong (nothing: `sentence` null): the form's sentence, the blank fields, the problems under their fields. */
  const say = (sentence: string | null, blankKeys: string[] = [], byField = new Map<string, string[]>()) => {
    setInvalid(sentence);
    setBlank(new Set(blankKeys));
    setProblems(byField);
  };

  /** The inputs as checked: a list without its blank rows (kept so, so a problem's row number is the row shown). */
  const compacted = (): Record<string, FieldInput> => {
    const now = Object.fromEntries(fields.map((f) => [f.key, valueOf(f)]));
    const lists = fields.filter((f) => f.kind === 'list' && Array.isArray(now[f.key]) && (now[f.key] as string[]).some((r) => r.trim() === ''));
    for (const f of lists) now[f.key] = (now[f.key] as string[]).filter((r) => r.trim() !== '');
    if (lists.length > 0) setInputs((prev) => ({ ...prev, ...Object.fromEntries(lists.map((f) => [f.key, now[f.key]])) }));
    return now;
  };

  /** The answer's values, or what is wrong with them (said, with the field to focus). */
  const check = (): Checked => {
    try {
      const now = compacted();
      const options = Object.fromEntries(fields.map((f) => [f.key, parseField(f, now[f.key])]));
      const missing = blankRequired(fields, params, options);
      if (missing.length > 0) {
        say(requiredSentence(missing), missing.map((f) => f.key));
        return { ok: false, focus: missing[0].key };
      }
      const found = answerProblems(params, options);
      const byField = new Map<string, string[]>();
      for (const p of found) byField.set(p.field, [...(byField.get(p.field) ?? []), p.message]);
      if (found.length > 0) {
        say(problemsSentence(found), [], byField);
        return { ok: false, focus: found[0].field };
      }
      say(null);
      return { ok: true, options };
    } catch (err) {
      say((err as Error).message);
      return { ok: false };
    }
  };

  /** Uploads the chosen files and answers `options` with their references; null when an upload was refused (said). */
  const upload = async (options: Record<string, unknown>): Promise<Record<string, unknown> | null> => {
    const done = { ...options };
    for (const f of fields) {
      const file = valueOf(f);
      if (f.kind !== 'file' || !(file instanceof File)) continue;
      setUploading(f.label);
      try {
        done[f.key] = await uploadFile({ ...target, field: f.key }, file);
      } catch (err) {
        const refused = toApiError(err);
        say(refused.message, [], new Map([[f.key, [refused.message]]]));
        return null;
      } finally {
        setUploading(null);
      }
    }
    return done;
  };

  return { valueOf, set, check, upload, clear: () => say(null), blank, problems, invalid, uploading };
}
