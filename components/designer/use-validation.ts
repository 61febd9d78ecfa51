/**
 * Live validation: the text goes to `models.validate` after `VALIDATE_DEBOUNCE_MS` of quiet.
 *
 * State machine: idle → waiting (debounce) → checking (request in flight) → done (problems of that
 * text) | failed (the call itself failed: `error`). A newer text makes older answers stale; they
 * are dropped. Syntax errors found in the browser are shown at once without asking the server.
 */
'use client';
import { useEffect, useRef, useState } from 'react';
import { callMutation } from '../data/api-client.ts';
import { toApiError, type ApiError } from '../data/api-error.ts';
import type { ModelProblem } from '../../vocab/model-problems.ts';

export const VALIDATE_DEBOUNCE_MS = 400;

export interface Validation {
  problems: ModelProblem[];
  /** The text the problems belong to. */
  checked: string | null;
  checking: boolean;
  error: ApiError | null;
}

export function useValidation(text: string, syntaxErrors: ModelProblem[], enabled: boolean): Validation {
  const [result, setResult] = useState<Validation>({ problems: [], checked: null, checking: false, error: null });
  const latest = useRef(text);
  latest.current = text;

  useEffect(() => {
    if (!enabled) return;
    if (syntaxErrors.length) {
      setResult({ problems: syntaxErrors, checked: text, checking: false, error: null });
      return;
    }
    setResult((r) => ({ ...r, checking: true }));
    const timer = setTimeout(() => {
      callMutation('models.validate', { source: text }).then(
        (answer) => latest.current === text && setResult({ problems: answer.problems, checked: text, checking: false, error: null }),
        (err: unknown) => latest.current === text && setResult((r) => ({ ...r, checking: false, error: toApiError(err) })),
      );
    }, VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, syntaxErrors, enabled]);

  return result;
}
