/** The designer's toolbar: undo/redo, versions, export/import, Run and Deploy (with the problem count), the draft's state with Discard, and who else is editing. Stateless. */
'use client';
import { useRef } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

export interface ToolbarProps {
  title: string;
  status: string;
  canUndo: boolean;
  canRedo: boolean;
  onUndo(): void;
  onRedo(): void;
  onExport(): void;
  /** Absent for people who may not design. */
  onImport?: (file: File) => void;
  onVersions?: () => void;
  onRun?: () => void;
  deploy?: { problems: number; checking: boolean; onDeploy(): void };
  /** The draft's state in words ('' when there is nothing to say); `onDiscard` when there is a draft or a change to throw away. */
  draft?: { label: string; failed: boolean; onDiscard?: () => void };
  /** "ana is editing this model" ('' for nobody else). */
  presence?: string;
}

export function DesignerToolbar({ title, status, canUndo, canRedo, onUndo, onRedo, onExport, onImport, onVersions, onRun, deploy, draft, presence }: ToolbarProps) {
  const file = useRef<HTMLInputElement>(null);
  const blocked = deploy ? deploy.problems > 0 || deploy.checking : true;
  const deployLabel = !deploy ? '' : deploy.checking ? 'Deploy (checking…)' : deploy.problems ? `Deploy (${deploy.problems} problem${deploy.problems > 1 ? 's' : ''})` : 'Deploy';
  return (
    <div className={styles.toolbar} role="toolbar" aria-label="Designer">
      <div className={styles.toolbarTitle}>
        {/* one line, however long the name (the whole name is its tooltip): the canvas never moves down for it */}
        <strong data-testid="designer-title" title={title}>
          {title}
        </strong>
        <span className={styles.muted} title={status}>
          {status}
        </span>
        {draft?.label ? (
          <span role="status" data-testid="draft-status" className={`${styles.draftStatus} ${draft.failed ? styles.draftFailed : styles.muted}`} title={draft.label}>
            {draft.label}
          </span>
        ) : null}
        {presence ? (
          <span data-testid="presence" className={styles.presence} title={presence}>
            {presence}
          </span>
        ) : null}
      </div>
      <div className={styles.toolbarButtons}>
        {draft?.onDiscard ? (
          <Button size="sm" variant="ghost" icon="x" onClick={draft.onDiscard}>
            Discard draft
          </Button>
        ) : null}
        <Button size="sm" variant="ghost" icon="undo" onClick={onUndo} disabled={!canUndo} aria-keyshortcuts="Control+Z">
          Undo
        </Button>
        <Button size="sm" variant="ghost" icon="refresh" onClick={onRedo} disabled={!canRedo} aria-keyshortcuts="Control+Shift+Z">
          Redo
        </Button>
        {onVersions ? (
          <Button size="sm" icon="clock" onClick={onVersions}>
            Versions
          </Button>
        ) : null}
        <Button size="sm" onClick={onExport}>
          Export
        </Button>
        {onImport ? (
          <>
            <Button size="sm" onClick={() => file.current?.click()}>
              Import
            </Button>
            <input
              ref={file}
              type="file"
              accept=".yml,.yaml,text/yaml,application/yaml"
              hidden
              aria-label="Import a YAML file"
              onChange={(e) => {
                const chosen = e.currentTarget.files?.[0];
                if (chosen) onImport(chosen);
                e.currentTarget.value = '';
              }}
            />
          </>
        ) : null}
        {onRun ? (
          <Button size="sm" icon="play" onClick={onRun}>
            Run
          </Button>
        ) : null}
        {deploy ? (
          <Button size="sm" variant="primary" icon="send" onClick={deploy.onDeploy} disabled={blocked} aria-keyshortcuts="Control+S" data-testid="deploy-button">
            {deployLabel}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
