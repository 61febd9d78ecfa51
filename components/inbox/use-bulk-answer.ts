/**
 * The one answer form of a bulk decision: the ticked tasks share the answer fields of their act
 * when they are all tasks of one act (one model, one node), read from the first one's form and
 * checked as a single task's form is (use-answer-form.ts); tasks of different acts are decided
 * without answers. File fields are not offered (a file belongs to one process): they are answered
 * one task at a time. State: the form's inputs (use-answer-form.ts), kept while the same act's
 * tasks are ticked.
 */
'use client';
import { useMemo } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { formFields } from './form-fields.ts';
import { useAnswerForm } from './use-answer-form.ts';

export interface BulkTask {
  pid: string;
  tid: string;
  mid: string;
  nid: string;
}

export function useBulkAnswer(tasks: readonly BulkTask[]) {
  const first = tasks[0];
  const oneAct = first !== undefined && tasks.every((t) => t.mid === first.mid && t.nid === first.nid);
  const target = { pid: first?.pid ?? '', tid: first?.tid ?? '' };
  const form = useApiQuery('inbox.form', target, { enabled: oneAct });
  const data = oneAct && form.data?.found ? form.data : null;
  const all = useMemo(() => (data ? formFields(data.outputs, data.params) : []), [data]);
  const fields = useMemo(() => all.filter((f) => f.kind !== 'file'), [all]);
  const answer = useAnswerForm(target, fields, data?.params);
  return { oneAct, fields, filesLeft: all.length - fields.length, answer };
}
