/**
 * A file answer (`type: file`): the browser's file chooser (limited to the field's `accept`
 * types), what was chosen with its size, and what the field takes. The file is uploaded when the
 * answer is sent (task-form.tsx); until then it is only held here. Stateless: the chosen file (or
 * null) goes to `onChange`.
 */
'use client';
import { useRef, type InputHTMLAttributes } from 'react';
import { formatBytes } from '../../vocab/answer-fields.ts';
import { Button } from '../ui/button.tsx';
import type { FormField } from './form-fields.ts';
import styles from './task-form.module.css';

interface FileFieldProps {
  field: FormField;
  file: File | null;
  inputProps: InputHTMLAttributes<HTMLInputElement>;
  onChange: (file: File | null) => void;
}

export function FileField({ field, file, inputProps, onChange }: FileFieldProps) {
  const input = useRef<HTMLInputElement>(null);
  const clear = () => {
    // a file input's value can only be emptied, not set
    if (input.current) input.current.value = '';
    onChange(null);
  };
  const takes = [`up to ${formatBytes(field.maxBytes ?? 0)}`, ...(field.accept?.length ? [field.accept.join(', ')] : [])].join(' · ');
  return (
    <>
      <input ref={input} {...inputProps} className={styles.input} type="file" accept={field.accept?.join(',')} onChange={(e) => onChange(e.target.files?.[0] ?? null)} />
      <p className={styles.hint}>
        {file ? (
          <>
            <span data-testid="chosen-file">
              {file.name} ({formatBytes(file.size)})
            </span>{' '}
            <Button size="sm" variant="ghost" icon="x" disabled={inputProps.disabled} onClick={clear}>
              Clear
            </Button>
          </>
        ) : (
          `A file ${takes}`
        )}
      </p>
    </>
  );
}
