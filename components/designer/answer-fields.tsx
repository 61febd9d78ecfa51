/**
 * The answer fields of an interrupt act (its `outputs`: what the person fills in, as the inbox
 * form shows them), edited as a list of names in the property panel. Names kept keep their value
 * (a default or an expression); new names get none (`null`: the answer given). Stateless.
 */
'use client';
import { TextInput } from './text-input.tsx';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The outputs after the names were edited to `names` (undefined: none left). */
export function outputsNamed(outputs: unknown, names: readonly string[]): Record<string, unknown> | undefined {
  const current = isRecord(outputs) ? outputs : {};
  const kept = [...new Set(names)];
  return kept.length ? Object.fromEntries(kept.map((name) => [name, Object.hasOwn(current, name) ? current[name] : null])) : undefined;
}

export function AnswerFields({ outputs, onSet }: { outputs: unknown; onSet: (outputs: Record<string, unknown> | undefined) => void }) {
  const names = isRecord(outputs) ? Object.keys(outputs) : [];
  return (
    <TextInput
      label="Answer fields (comma-separated)"
      mono
      hint="What the person fills in, e.g. approved_by, comment (the act's outputs)"
      value={names.join(', ')}
      onCommit={(text) =>
        onSet(
          outputsNamed(
            outputs,
            text.split(',').map((s) => s.trim()).filter(Boolean),
          ),
        )
      }
    />
  );
}
