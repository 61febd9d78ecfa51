/**
 * The schedule of a trigger with `uses: acts.event.schedule`, in the property panel: its `cron`
 * and `timezone` fields. The designer's live validation checks them on the server
 * (`models.validate`, with the cron parser the engine schedules with); a problem at either field
 * shows under it, in the validation's sentence. Stateless like the panel: each commit is one edit.
 */
'use client';
import type { ProblemLike } from './model/index.ts';
import { TextInput } from './text-input.tsx';

/** The package of schedule triggers. */
export const SCHEDULE_TRIGGER = 'acts.event.schedule';

export interface ScheduleFieldsProps {
  /** The trigger's document path (`on[0]`). */
  path: string;
  cron: string;
  timezone: string;
  /** The validation problems of the trigger's node. */
  problems: readonly ProblemLike[];
  onSet: (fields: { cron?: string; timezone?: string }) => void;
}

export function ScheduleFields({ path, cron, timezone, problems, onSet }: ScheduleFieldsProps) {
  const at = (field: string) => problems.find((p) => p.path === `${path}.${field}`)?.message;
  return (
    <>
      <TextInput
        label="Cron"
        mono
        hint="6 fields: sec min hour day month weekday, e.g. 0 */5 * * * * (5 fields: from minutes)"
        problem={at('cron')}
        value={cron}
        onCommit={(v) => onSet({ cron: v.trim() || undefined })}
      />
      <TextInput
        label="Timezone"
        hint="An IANA zone such as Europe/Paris; empty: the server's"
        problem={at('timezone')}
        value={timezone}
        onCommit={(v) => onSet({ timezone: v.trim() || undefined })}
      />
    </>
  );
}
