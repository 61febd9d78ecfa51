/**
 * Adding a setup hook to the workflow, a step or an act, in its property panel: an act of a
 * package run `on` one of the hook events (vocab/hook-events.ts), put in the owner's `setup` list.
 * The new hook is selected, so its params are set next in its own panel.
 */
'use client';
import { HOOK_EVENTS } from '../../vocab/hook-events.ts';
import { PickAndAdd } from './pick-and-add.tsx';

export function HookAdder({ packages, onAdd }: { packages: readonly string[]; onAdd: (on: string, uses: string) => void }) {
  const picks = [
    { label: 'Hook on', options: HOOK_EVENTS },
    { label: 'Hook runs', options: packages, initial: packages.find((p) => p.endsWith('.msg')), show: (p: string) => p.replace(/^acts\.core\./, '') },
  ];
  return <PickAndAdd picks={picks} button="Add hook" onAdd={([on, uses]) => onAdd(on, uses)} />;
}
