/**
 * What an operator needs beside a task to decide: the run's start inputs and the variables visible
 * at the task (inbox.form's `context`, bounded by the server: long values arrive cut, with their
 * size; an uploaded file as its download link), and a link to the run page, where every value is shown whole.
 */
'use client';
import Link from 'next/link';
import { isFileRef } from '../../vocab/answer-fields.ts';
import { FileLink } from '../ui/file-links.tsx';
import styles from './task-context.module.css';

export interface ContextList {
  values: Record<string, unknown>;
  omitted: number;
}

interface TaskContextProps {
  pid: string;
  context: { inputs: ContextList; variables: ContextList };
}

interface Cut {
  $truncated: true;
  bytes: number;
  preview: string;
}

const isCut = (v: unknown): v is Cut => typeof v === 'object' && v !== null && (v as { $truncated?: unknown }).$truncated === true;

/** A context value as text: strings as they are, others as JSON, a cut value with its size. */
export function ValueText({ value }: { value: unknown }) {
  if (isCut(value)) {
    return (
      <>
        <span className={styles.value}>{value.preview}…</span>{' '}
        <span className={styles.note}>(cut: {Math.ceil(value.bytes / 1024)} KiB in all; the run page shows it whole)</span>
      </>
    );
  }
  if (isFileRef(value)) return <FileLink file={value} />;
  return <span className={styles.value}>{typeof value === 'string' ? value : JSON.stringify(value)}</span>;
}

function Values({ title, list }: { title: string; list: ContextList }) {
  const entries = Object.entries(list.values);
  if (entries.length === 0) return null;
  return (
    <div className={styles.group}>
      <h3 className={styles.heading}>{title}</h3>
      <dl className={styles.list} aria-label={title}>
        {entries.map(([key, value]) => (
          <div key={key} className={styles.entry}>
            <dt className={styles.key}>{key}</dt>
            <dd className={styles.cell}>
              <ValueText value={value} />
            </dd>
          </div>
        ))}
      </dl>
      {list.omitted > 0 ? <p className={styles.note}>and {list.omitted} more on the run page</p> : null}
    </div>
  );
}

export function TaskContext({ pid, context }: TaskContextProps) {
  return (
    <section className={styles.context} aria-label="Run context">
      <Values title="Run inputs" list={context.inputs} />
      <Values title="Variables" list={context.variables} />
      <Link className={styles.link} href={`/runs/${encodeURIComponent(pid)}`}>
        Open the run
      </Link>
    </section>
  );
}
