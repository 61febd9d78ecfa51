/** The four roles as labelled checkboxes (uncontrolled, named `roles`), with what each may do. */
import { ROLE_NOTES, ROLES } from '../../vocab/roles.ts';
import styles from './admin.module.css';

export function RoleCheckboxes({ legend, initial = [], disabled = false }: { legend: string; initial?: readonly string[]; disabled?: boolean }) {
  return (
    <fieldset className={styles.roles} disabled={disabled}>
      <legend className={styles.legend}>{legend}</legend>
      {ROLES.map((role) => (
        <label key={role} className={styles.role} title={ROLE_NOTES[role]}>
          <input type="checkbox" name="roles" value={role} defaultChecked={initial.includes(role)} /> {role}
        </label>
      ))}
    </fieldset>
  );
}

/** The roles ticked in a form. */
export function rolesIn(form: FormData): Array<(typeof ROLES)[number]> {
  return form.getAll('roles').map(String).filter((r): r is (typeof ROLES)[number] => (ROLES as readonly string[]).includes(r));
}
