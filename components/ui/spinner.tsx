/** A small loading indicator with an accessible label. */
import { Icon } from './icons.tsx';
import styles from './spinner.module.css';

export function Spinner({ label = 'Loading', size = 18 }: { label?: string; size?: number }) {
  return (
    <span role="status" className={styles.spinner}>
      <Icon name="loader" size={size} className={styles.icon} />
      <span className="visually-hidden">{label}</span>
    </span>
  );
}
