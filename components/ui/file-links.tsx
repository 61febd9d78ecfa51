/**
 * Download links of the files an answer references (vocab/answer-fields.ts `{ file, name, size,
 * type }`, served by `/api/files/<id>` to anyone who may read runs): one for a reference, and the
 * list of those found in a value (its keys and lists, a few levels deep) under a JSON view.
 */
import { formatBytes, isFileRef, isRecord, type FileRef } from '../../vocab/answer-fields.ts';
import { fileUrl } from '../data/files.ts';
import styles from './file-links.module.css';

export function FileLink({ file }: { file: FileRef }) {
  return (
    <span className={styles.file}>
      <a href={fileUrl(file.file)} download={file.name}>
        {file.name}
      </a>{' '}
      <span className={styles.size}>({formatBytes(file.size)})</span>
    </span>
  );
}

/** The file references in `value` with where they are (`receipt`, `docs.1`), at most `max`. */
export function fileRefsIn(value: unknown, max = 20, at = '', depth = 0): Array<{ at: string; ref: FileRef }> {
  if (isFileRef(value)) return [{ at, ref: value }];
  if (depth >= 3) return [];
  const entries = Array.isArray(value) ? value.map((v, i) => [String(i), v] as const) : isRecord(value) ? Object.entries(value) : [];
  const found: Array<{ at: string; ref: FileRef }> = [];
  for (const [key, v] of entries) {
    if (found.length >= max) break;
    found.push(...fileRefsIn(v, max - found.length, at ? `${at}.${key}` : key, depth + 1));
  }
  return found;
}

/** The files `value` references, as download links (nothing when it references none). */
export function FileLinks({ value }: { value: unknown }) {
  const refs = fileRefsIn(value);
  if (refs.length === 0) return null;
  return (
    <ul className={styles.list} aria-label="Files">
      {refs.map(({ at, ref }) => (
        <li key={`${at}:${ref.file}`}>
          <span className={styles.at}>{at}</span> <FileLink file={ref} />
        </li>
      ))}
    </ul>
  );
}
