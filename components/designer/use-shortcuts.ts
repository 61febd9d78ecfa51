/**
 * The designer's keyboard shortcuts on the page (the YAML editor binds undo/redo/deploy itself):
 * Delete removes the selected node, Ctrl/Cmd+D duplicates it, Ctrl/Cmd+C/V copy and paste an act, Ctrl/Cmd+Z undo,
 * Ctrl/Cmd+Shift+Z (or Y) redo, Ctrl/Cmd+S opens the deploy dialog. Keys typed into a form field
 * or the editor are left alone, except Ctrl/Cmd+S. Stateless: the handlers come from the caller.
 */
'use client';
import { useEffect, useRef } from 'react';

export interface Shortcuts {
  remove(): void;
  duplicate(): void;
  copy(): boolean;
  paste(): boolean;
  undo(): void;
  redo(): void;
  deploy(): void;
}

const inField = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName) || !!target.closest('.cm-editor, dialog'));

export function useShortcuts(shortcuts: Shortcuts): void {
  const current = useRef(shortcuts);
  current.current = shortcuts;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const act = current.current;
      if (mod && key === 's') {
        event.preventDefault();
        act.deploy();
        return;
      }
      if (inField(event.target)) return;
      if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) act.redo();
        else act.undo();
      } else if (mod && key === 'y') {
        event.preventDefault();
        act.redo();
      } else if (mod && key === 'd') {
        // the browser's own Ctrl+D (a bookmark) is not what a designer on a node means
        event.preventDefault();
        act.duplicate();
      } else if (mod && key === 'c') {
        if (act.copy()) event.preventDefault();
      } else if (mod && key === 'v') {
        if (act.paste()) event.preventDefault();
      } else if (!mod && (event.key === 'Delete' || event.key === 'Backspace')) {
        event.preventDefault();
        act.remove();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
