/**
 * The commands on one node — Delete, Duplicate, Wrap in step — as the canvas's toolbar for the
 * selected node and as the context menu of a node (right click). One list of actions for both;
 * an action that does not apply to the node is disabled and says why; shortcuts are shown beside
 * their actions. The menu closes on Escape, a click elsewhere, or once an action ran, and opens
 * moved so it stays wholly in the window. State: the menu's focus and its place.
 */
'use client';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
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
  /** Its keyboard shortcut (use-shortcuts.ts): as shown beside it, and as `aria-keyshortcuts` names it. */
  keys?: { shown: string; aria: string };
  run: () => void;
  enabled: boolean;
  why: string;
}

function nodeActions(can: NodeActionAbility, on: NodeActionHandlers): NodeAction[] {
  return [
    { label: 'Delete', keys: { shown: 'Del', aria: 'Delete' }, run: on.remove, enabled: can.remove, why: 'The workflow itself cannot be deleted' },
    { label: 'Duplicate', keys: { shown: 'Ctrl+D', aria: 'Control+D' }, run: on.duplicate, enabled: can.duplicate, why: 'The workflow itself cannot be duplicated' },
    { label: 'Wrap in step', run: on.wrapInStep, enabled: can.wrap, why: "Only an act of a step's acts moves into a step of its own" },
  ];
}

/** A tooltip: why an action is off, or its shortcut. */
const titleOf = (a: NodeAction) => (a.enabled ? (a.keys ? `${a.label} (${a.keys.shown})` : undefined) : a.why);

/** Where a menu of `size` opened at `at` stays wholly in a viewport of `view` (8 px from its edges). */
export function keptOnScreen(at: { x: number; y: number }, size: { width: number; height: number }, view: { width: number; height: number }): { x: number; y: number } {
  const margin = 8;
  return {
    x: Math.max(margin, Math.min(at.x, view.width - size.width - margin)),
    y: Math.max(margin, Math.min(at.y, view.height - size.height - margin)),
  };
}

export function NodeToolbar({ label, can, on }: { label: string; can: NodeActionAbility; on: NodeActionHandlers }) {
  return (
    <div role="toolbar" aria-label={`Actions on ${label}`} className={styles.nodeToolbar}>
      {nodeActions(can, on).map((a) => (
        <Button key={a.label} size="sm" variant={a.label === 'Delete' ? 'danger' : 'secondary'} disabled={!a.enabled} title={titleOf(a)} aria-keyshortcuts={a.keys?.aria} onClick={a.run}>
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
  // measured before the first paint: a menu opened near the window's edge moves to stay whole
  const [place, setPlace] = useState(at);
  useLayoutEffect(() => {
    const box = menu.current?.getBoundingClientRect();
    if (box) setPlace(keptOnScreen(at, box, { width: window.innerWidth, height: window.innerHeight }));
  }, [at]);
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
    <div ref={menu} role="menu" aria-label={`Actions on ${label}`} className={styles.nodeMenu} style={{ left: place.x, top: place.y }}>
      {nodeActions(can, on).map((a) => (
        <button
          key={a.label}
          type="button"
          role="menuitem"
          disabled={!a.enabled}
          title={titleOf(a)}
          aria-keyshortcuts={a.keys?.aria}
          onClick={() => {
            onClose();
            a.run();
          }}
        >
          {a.label}
          {a.keys ? (
            <kbd className={styles.menuKeys} aria-hidden="true">
              {a.keys.shown}
            </kbd>
          ) : null}
        </button>
      ))}
    </div>
  );
}
