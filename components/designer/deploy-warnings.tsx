/**
 * What a deploy would go over (`drafts.deployCheck`): versions deployed since the text's base, and
 * other designers' drafts of the model saved since this designer's draft began. When there is
 * any, the deploy waits for the "Deploy over these changes" box to be ticked. Stateless: the
 * dialog holds the tick.
 */
'use client';
import type { ApiError } from '../data/api-error.ts';
import { useApiQuery } from '../data/use-api.ts';
import styles from './designer.module.css';

export interface DeployCheck {
  /** False while the check is read. */
  ready: boolean;
  warnings: string[];
  /** The check could not be read (the deploy is not held for it). */
  error: ApiError | null;
}

const timeOf = (ms: number) => new Date(ms).toLocaleString();

/** The warnings of `deployCheck` for `mid` from `baseVer`, read each time the dialog opens. */
export function useDeployCheck(mid: string, baseVer: number, open: boolean): DeployCheck {
  const check = useApiQuery('drafts.deployCheck', { mid, base_ver: baseVer }, { enabled: open && mid !== '', staleTime: 0, gcTime: 0 });
  if (!check.data) return { ready: mid === '' || !!check.error, warnings: [], error: check.error };
  const { deployed_since, others } = check.data;
  const warnings = [
    ...deployed_since.map((v) =>
      baseVer === 0
        ? `${mid} is already deployed: v${v.ver} by ${v.deployed_by ?? 'the CLI or API'} (${timeOf(v.create_time)}) — deploying replaces it`
        : `v${v.ver} was deployed by ${v.deployed_by ?? 'the CLI or API'} (${timeOf(v.create_time)}) after you started from v${baseVer}`,
    ),
    ...others.map((d) => `${d.user_name} has a draft of this model, saved ${timeOf(d.update_time)} (from v${d.base_ver})`),
  ];
  return { ready: true, warnings, error: check.error };
}

export function DeployWarnings({ warnings, confirmed, onConfirm }: { warnings: string[]; confirmed: boolean; onConfirm: (yes: boolean) => void }) {
  if (warnings.length === 0) return null;
  return (
    <div role="alert" className={styles.deployWarnings} data-testid="deploy-warnings">
      <strong>Someone else changed this model since you started</strong>
      <ul>
        {warnings.map((w) => (
          <li key={w}>{w}</li>
        ))}
      </ul>
      <label className={styles.check}>
        <input type="checkbox" checked={confirmed} onChange={(e) => onConfirm(e.currentTarget.checked)} />
        Deploy over these changes
      </label>
    </div>
  );
}
