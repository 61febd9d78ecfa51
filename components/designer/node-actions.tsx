/**
 * The commands on one node — Delete, Duplicate, Wrap in step — as the canvas's toolbar for the
 * selected node and as the context menu of a node (right click). One list of actions for both;
 * an action that does not apply to the node is disabled and says why. The menu closes on Escape,
 * a click elsewhere, or once an action ran. Stateless but for the menu's focus.
 */
'use client';
import { useEffect, useRef } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './designer.module.css';

export interface NodeActionHandlers {
  remove(): void;
  duplicate(): void;
  wrapInStep(): void;
}

export interface NodeActionAbility {
  remove: boolean;
  duplicate: boolean;
  wrap: boolean;
}

interface NodeAction {
  label: string;
  run: () => void;
  enabled: boolean;
  why: string;
}

function nodeActions(can: NodeActionAbility, on: NodeActionHandlers): NodeAction[] {
  return [
    { label: 'Delete', run: on.remove, enabled: can.remove, why: 'The workflow itself cannot be deleted' },
    { label: 'Duplicate', run: on.duplicate, enabled: can.duplicate, why: 'The workflow itself cannot be duplicated' },
    { label: 'Wrap in step', run: on.wrapInStep, enabled: can.wrap, why: "Only an act of a step's acts moves into a step of its own" },
  ];
}

export function NodeToolbar({ label, can, on }: { label: string; can: NodeActionAbility; on: NodeActionHandlers }) {
  return (
    <div role="toolbar" aria-label={`Actions on ${label}`} className={styles.nodeToolbar}>
      {nodeActions(can, on).map((a) => (
        <Button key={a.label} size="sm" variant={a.label === 'Delete' ? 'danger' : 'secondary'} disabled={!a.enabled} title={a.enabled ? undefined : a.why} onClick={a.run}>
          {a.label}
        </Button>
      ))}
    </div>
  );
}

export interface NodeMenuProps {
  label: string;
  /** Where the menu opens, in the page's client coordinates. */
  at: { x: number; y: number };
  can: NodeActionAbility;
  on: NodeActionHandlers;
  onClose: () => void;
}

export function NodeContextMenu({ label, at, can, on, onClose }: NodeMenuProps) {
  const menu = useRef<HTMLDivElement>(null);
  useEffect(() => {
    menu.current?.querySelector<HTMLButtonElement>('button:not(:disabled)')?.focus();
    const onKey = (event: KeyboardEvent) => event.key === 'Escape' && onClose();
    const onDown = (event: PointerEvent) => !menu.current?.contains(event.target as Node) && onClose();
    window.addEventListener('keydown', onKey);
    window.addEventListener('pointerdown', onDown);
    return () => {
      window.removeEventListener('keydown', onKey);
      window.removeEventListener('pointerdown', onDown);
    };
  }, [onClose]);
  return (
    <div ref={menu} role="menu" aria-label={`Actions on ${label}`} className={styles.nodeMenu} style={{ left: at.x, top: at.y }}>
      {nodeActions(can, on).map((a) => (
        <button
          key={a.label}
          type="button"
          role="menuitem"
          disabled={!a.enabled}
          title={a.enabled ? undefined : a.why}
          onClick={() => {
            onClose();
            a.run();
          }}
        >
          {a.label}
        </button>
      ))}
    </div>
  );
}
