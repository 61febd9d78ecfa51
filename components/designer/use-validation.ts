/**
 * Live validation: the text goes to `models.validate` after `VALIDATE_DEBOUNCE_MS` of quiet.
 *
 * State machine: idle → waiting (debounce) → checking (request in flight) → done (problems of that
 * text) | failed (the call itself failed: `error`). Only the answers are state; `checking` is read
 * from them (the text is neither checked nor failed yet). A newer text makes older answers stale; they
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

/** What the last answer said; `failed`: the text whose check itself failed. */
interface Answer {
  problems: ModelProblem[];
  checked: string | null;
  failed: string | null;
  error: ApiError | null;
}

export function useValidation(text: string, syntaxErrors: ModelProblem[], enabled: boolean): Validation {
  const [answer, setAnswer] = useState<Answer>({ problems: [], checked: null, failed: null, error: null });
  const latest = useRef(text);
  latest.current = text;

  useEffect(() => {
    if (!enabled) return;
    if (syntaxErrors.length) {
      setAnswer({ problems: syntaxErrors, checked: text, failed: null, error: null });
      return;
    }
    const timer = setTimeout(() => {
      callMutation('models.validate', { source: text }).then(
        (valid) => latest.current === text && setAnswer({ problems: valid.problems, checked: text, failed: null, error: null }),
        (err: unknown) => latest.current === text && setAnswer((a) => ({ ...a, failed: text, error: toApiError(err) })),
      );
    }, VALIDATE_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, syntaxErrors, enabled]);

  // derived, not set by the effect: a state set there rendered the whole designer once more per edit
  const checking = enabled && answer.checked !== text && answer.failed !== text;
  return { problems: answer.problems, checked: answer.checked, checking, error: answer.error };
}
