/** The list of validation problems; pressing one selects its node (and the editor shows its line). Stateless. */
'use client';
import type { PinnedProblem, ProblemLike } from './model/index.ts';
import { Icon } from '../ui/icons.tsx';
import styles from './designer.module.css';

export function ProblemsList({ problems, checking, onPick }: { problems: readonly PinnedProblem<ProblemLike>[]; checking: boolean; onPick: (nodeId: string) => void }) {
  return (
    <section className={styles.problems} aria-label="Problems" aria-live="polite">
      <h2 className={styles.paneTitle}>
        Problems ({problems.length}){checking ? <span className={styles.muted}> · checking…</span> : null}
      </h2>
      {problems.length === 0 ? (
        <p className={styles.ok}>
          <Icon name="check" size={14} /> No problems
        </p>
      ) : (
        <ul>
          {problems.map((problem, i) => (
            <li key={i}>
              <button type="button" className={styles.problemItem} onClick={() => onPick(problem.nodeId)} data-testid="problem-item">
                <Icon name="alert" size={14} />
                <span>
                  {problem.message}
                  {problem.code ? <code> {problem.code}</code> : null}
                </span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
