/**
 * A deployed hook trigger's endpoint and its last deliveries, in the property panel: the URL a
 * sender POSTs to (`/hooks/<model>/<trigger>`, signed with the secret the trigger names) and each
 * delivery's time, outcome (taken, repeated, or the refusal's code and sentence), event and run.
 * Read every 10 s. Stateless.
 */
'use client';
import Link from 'next/link';
import { useApiQuery } from '../data/use-api.ts';
import { formatDateTime } from '../runs/format.ts';
import { webhookPath } from '../../vocab/webhooks.ts';
import styles from './designer.module.css';
import { TextInput } from './text-input.tsx';

export function HookDeliveries({ modelId, triggerId }: { modelId: string; triggerId: string }) {
  const path = webhookPath(modelId, triggerId);
  const url = typeof window === 'undefined' ? path : `${window.location.origin}${path}`;
  const deliveries = useApiQuery('triggers.deliveries', { id: `${modelId}:${triggerId}` }, { refetchInterval: 10_000 });
  const rows = deliveries.data ?? [];
  return (
    <section className={styles.fieldset} aria-label="Webhook">
      <TextInput label="Endpoint (POST)" mono readOnly value={url} onCommit={() => undefined} hint="The sender signs each body with the secret named in the params" />
      <h3 className={styles.paneTitle}>Last deliveries</h3>
      {rows.length === 0 ? (
        <p className={styles.muted}>{deliveries.isLoading ? 'Loading…' : 'None yet.'}</p>
      ) : (
        <ul className={styles.deliveries}>
          {rows.map((row) => (
            <li key={row.id} data-testid="hook-delivery" data-result={row.result}>
              <time dateTime={new Date(row.time).toISOString()}>{formatDateTime(row.time)}</time>{' '}
              {row.result === 'ok' ? (row.repeated ? 'repeated' : 'started') : <strong>{row.result}</strong>}
              {row.event ? <> · {row.event}</> : null}
              {row.pid ? (
                <>
                  {' '}
                  · <Link href={`/runs/${encodeURIComponent(row.pid)}`}>run</Link>
                </>
              ) : null}
              {row.message ? <p className={styles.muted}>{row.message}</p> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
