/** The mark beside the label of a required answer field (screen readers hear `aria-required` instead). */
import styles from './task-form.module.css';

export function RequiredMark({ required }: { required: boolean }) {
  return required ? (
    <span className={styles.requiredMark} title="required" aria-hidden="true">
      {' *'}
    </span>
  ) : null;
}
