/**
 * Sends one client action (complete, error, back, skip, cancel, outcome) for a task and remembers how it
 * went. State: idle → sending(action) → idle (done: `onDone`) | refused(error, the server's
 * reason). A new send clears an earlier refusal.
 */
'use client';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { callMutation } from '../data/api-client.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import { apiKey } from '../data/query-keys.ts';

export type TaskAction = 'complete' | 'error' | 'back' | 'skip' | 'cancel' | 'outcome';

export const ACTION_DONE: Record<TaskAction, string> = {
  complete: 'Approved',
  error: 'Rejected',
  back: 'Sent back',
  skip: 'Skipped',
  cancel: 'Approval withdrawn',
  outcome: 'Answered',
};

type Status = { kind: 'idle' } | { kind: 'sending'; action: TaskAction } | { kind: 'refused'; action: TaskAction; error: ApiError };

export function useTaskAction(target: { pid: string; tid: string }, onDone: (action: TaskAction) => void) {
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const queryClient = useQueryClient();
  const send = async (action: TaskAction, options: Record<string, unknown> = {}) => {
    if (status.kind === 'sending') return;
    setStatus({ kind: 'sending', action });
    try {
      await callMutation(`tasks.${action}`, { pid: target.pid, tid: target.tid, options });
      setStatus({ kind: 'idle' });
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.list') });
      void queryClient.invalidateQueries({ queryKey: apiKey('inbox.approvals') });
      onDone(action);
    } catch (err) {
      setStatus({ kind: 'refused', action, error: toApiError(err) });
    }
  };
  return { status, send, busy: status.kind === 'sending' ? status.action : null, error: status.kind === 'refused' ? status.error : null };
}
