/**
 * Declares (or changes) an external package — its acts wait for remote workers — from its name,
 * description and the JSON Schema of its params (designers; `packages.register`). A schema that
 * is not JSON is said under the box before anything is sent; the server's refusals show as they
 * come (`package.invalid` with its sentence). The inputs are uncontrolled and cleared after a success.
 */
'use client';
import { useId, useRef, useState, type FormEvent } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { useHydrated } from '../shell/use-hydrated.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { TextField } from '../ui/text-field.tsx';
import styles from './packages.module.css';

const EXAMPLE = '{\n  "type": "object",\n  "required": ["width"],\n  "properties": { "width": { "type": "number", "title": "Width" } }\n}';

export function ExternalPackageForm() {
  const hydrated = useHydrated();
  const schemaId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  const [schemaError, setSchemaError] = useState<string | null>(null);
  const register = useApiMutation('packages.register', { invalidates: ['packages.list'], onSuccess: () => formRef.current?.reset() });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    let schema: unknown;
    try {
      schema = JSON.parse(String(form.get('schema') ?? ''));
    } catch (err) {
      setSchemaError(`The schema is not JSON: ${(err as Error).message}`);
      return;
    }
    setSchemaError(null);
    register.mutate({ name: String(form.get('name') ?? '').trim(), desc: String(form.get('desc') ?? '').trim(), schema });
  };
  return (
    <form ref={formRef} className={styles.form} onSubmit={submit} aria-label="Declare an external package">
      <h2 className={styles.formTitle}>Declare an external package</h2>
      <TextField label="Package name" name="name" autoComplete="off" required maxLength={200} placeholder="ext.resize" hint="Dotted lowercase words; its acts wait until a remote worker completes or fails them." />
      <TextField label="Description" name="desc" autoComplete="off" maxLength={2000} />
      <label htmlFor={schemaId} className={styles.label}>
        Params schema (JSON)
      </label>
      <textarea id={schemaId} name="schema" className={styles.schema} required defaultValue={EXAMPLE} aria-invalid={schemaError ? true : undefined} spellCheck={false} />
      {schemaError ? (
        <p role="alert" className={styles.error}>
          {schemaError}
        </p>
      ) : null}
      <Button type="submit" variant="primary" icon="plug" disabled={!hydrated} busy={register.isPending}>
        Declare package
      </Button>
      {register.error ? <ErrorNote error={register.error} title="The package could not be declared" /> : null}
      {register.data ? <p role="status">Declared {register.data.name}: workers can now poll for its acts.</p> : null}
    </form>
  );
}
