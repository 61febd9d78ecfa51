/**
 * The act packages a model may use (`packages.list`, triggers left out): name, kind (built in,
 * external — run by remote workers —, or registered) and description; designers declare external
 * packages below the list. Stateless beyond its queries.
 */
'use client';
import { useMe } from '../data/auth.ts';
import { useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { ExternalPackageForm } from './external-package-form.tsx';
import styles from './packages.module.css';

const COLUMNS = ['Package', 'Kind', 'Description'] as const;

function kindOf(row: { built_in: boolean; external: boolean }): string {
  if (row.built_in) return 'Built in';
  return row.external ? 'External (remote workers)' : 'Registered';
}

export function PackagesTable() {
  const me = useMe();
  const packages = useApiQuery('packages.list', { offset: 0, limit: 200 });
  if (packages.error) return <ErrorNote error={packages.error} title="The packages could not be read" onRetry={() => packages.refetch()} />;
  if (!packages.data) return <Spinner label="Loading the packages" />;
  const rows = packages.data.rows.filter((row) => row.catalog !== 'event');
  return (
    <div className={styles.wrap}>
      <table className={styles.table} aria-label="Packages">
        <thead>
          <tr>
            {COLUMNS.map((column) => (
              <th key={column} scope="col">
                {column}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.id} data-package={row.id}>
              <td className={styles.name}>{row.id}</td>
              <td className={styles.kind}>{kindOf(row)}</td>
              <td>{row.desc}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {me.can('design') ? <ExternalPackageForm /> : null}
    </div>
  );
}
