/**
 * Adding a trigger to the workflow, in the property panel of the workflow node: one of the trigger
 * packages (`acts.event.*`: manual, hook, chat, schedule). The new trigger is selected, so a
 * schedule's cron is set next in its own panel.
 */
'use client';
import { PickAndAdd } from './pick-and-add.tsx';

export function TriggerAdder({ packages, onAdd }: { packages: readonly string[]; onAdd: (uses: string) => void }) {
  const pick = { label: 'Trigger', options: packages, initial: packages.find((p) => p.endsWith('.schedule')), show: (p: string) => p.replace(/^acts\.event\./, '') };
  return <PickAndAdd picks={[pick]} button="Add trigger" onAdd={([uses]) => onAdd(uses)} />;
}
