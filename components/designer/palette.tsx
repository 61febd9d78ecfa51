/**
 * The palette of packages (`packages.list`): drag one onto a step, branch or act of the canvas to
 * add an act there, or press it to add the act at the selected node (the keyboard way). Also the
 * "Add step" and "Add branch" buttons. External packages (run by remote workers) say so; a package
 * this server does not run (its configuration turns it off, e.g. acts.app.shell) is shown disabled,
 * saying why. Stateless.
 */
'use client';
import type { DragEvent } from 'react';
import { packageIcon } from '../graph/index.ts';
import { Button } from '../ui/button.tsx';
import { Icon } from '../ui/icons.tsx';
import styles from './designer.module.css';

/** The drag payload type of a package name. */
export const PACKAGE_MIME = 'application/x-acts-package';

export interface PalettePackage {
  id: string;
  desc: string;
  /** Why this server does not run the package (its configuration turns it off); null or absent: it runs. */
  off?: string | null;
  /** Run by remote workers (an external package, `packages.register`). */
  external?: boolean;
}

export interface PaletteProps {
  packages: readonly PalettePackage[];
  /** Where a pressed package goes (the selected node's label), for the buttons' names. */
  targetLabel: string;
  onAdd: (uses: string) => void;
  onAddStep: () => void;
  onAddBranch: (() => void) | null;
  disabled?: boolean;
}

export function Palette({ packages, targetLabel, onAdd, onAddStep, onAddBranch, disabled }: PaletteProps) {
  const start = (event: DragEvent, uses: string) => {
    event.dataTransfer.setData(PACKAGE_MIME, uses);
    event.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <nav className={styles.palette} aria-label="Palette">
      <div className={styles.paletteActions}>
        <Button size="sm" icon="workflow" onClick={onAddStep} disabled={disabled}>
          Add step
        </Button>
        <Button size="sm" icon="send" onClick={onAddBranch ?? undefined} disabled={disabled || !onAddBranch} title={onAddBranch ? undefined : 'Select a step first'}>
          Add branch
        </Button>
      </div>
      <h2 className={styles.paneTitle}>Acts</h2>
      <p className={styles.hint}>Drag onto a step, or press to add to {targetLabel}.</p>
      <ul className={styles.packageList}>
        {packages.map((pkg) => (
          <li key={pkg.id}>
            <button
              type="button"
              className={styles.package}
              draggable={!disabled && !pkg.off}
              disabled={disabled || !!pkg.off}
              onDragStart={(e) => start(e, pkg.id)}
              onClick={() => onAdd(pkg.id)}
              aria-label={`Add ${pkg.id} to ${targetLabel}`}
              aria-description={pkg.off ?? undefined}
              title={pkg.off ?? (pkg.external ? `${pkg.desc} (run by a remote worker)` : pkg.desc)}
              data-package={pkg.id}
              data-external={pkg.external ? 'true' : undefined}
            >
              <Icon name={packageIcon(pkg.id)} size={14} />
              <span className={styles.packageName}>{pkg.id.replace(/^acts\.core\./, '')}</span>
              <span className={styles.packageDesc}>{pkg.off ? `off on this server — ${pkg.desc}` : pkg.external ? `Remote worker${pkg.desc ? ` · ${pkg.desc}` : ''}` : pkg.desc}</span>
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
