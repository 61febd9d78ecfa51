/** A value as indented JSON under a heading (`—` when empty), for task variables; the files it references as download links. */
import { FileLinks } from '../ui/file-links.tsx';
import styles from './run.module.css';

function isEmpty(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'object' && Object.keys(value as object).length === 0);
}

export function JsonBlock({ title, value }: { title: string; value: unknown }) {
  return (
    <section className={styles.json} aria-label={title}>
      <h4>{title}</h4>
      {isEmpty(value) ? <p className={styles.muted}>—</p> : <pre>{JSON.stringify(value, null, 2)}</pre>}
      <FileLinks value={value} />
    </section>
  );
}
