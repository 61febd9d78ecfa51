/** The red corner badge of a node with validation problems; the messages show on hover and focus. */
import styles from './graph-nodes.module.css';

export function ProblemBadge({ problems }: { problems: readonly string[] }) {
  const count = problems.length;
  const label = `${count} problem${count > 1 ? 's' : ''}: ${problems.join('; ')}`;
  return (
    <span className={`${styles.problem} nodrag`} tabIndex={0} role="img" aria-label={label} data-testid="node-problem">
      {count}
      <span className={styles.problemTip} role="tooltip">
        {problems.map((message, i) => (
          <span key={i}>{message}</span>
        ))}
      </span>
    </span>
  );
}
