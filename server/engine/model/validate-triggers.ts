/** Triggers (`on:`): ids, event packages, and the cron and timezone of schedules (spec 5.7). */
import { cronProblem, isValidTimezone } from './cron.ts';
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import type { ModelProblem, Trigger, Workflow } from './types.ts';

export const TRIGGER_PACKAGES = ['acts.event.manual', 'acts.event.hook', 'acts.event.chat', 'acts.event.schedule'] as const;
export const SCHEDULE_TRIGGER = 'acts.event.schedule';

function scheduleProblems(trigger: Trigger, path: string, name: string): ModelProblem[] {
  const problems: ModelProblem[] = [];
  let timezone = trigger.timezone;
  if (timezone !== undefined && !isValidTimezone(timezone)) {
    problems.push(
      problem(
        'model.bad_timezone',
        joinPath(path, 'timezone'),
        `${name} has an unknown timezone '${timezone}': use an IANA zone name such as \`UTC\` or \`Europe/Paris\``,
      ),
    );
    timezone = undefined;
  }
  if (trigger.cron === undefined) {
    problems.push(
      problem(
        'model.bad_cron',
        joinPath(path, 'cron'),
        `${name} needs a \`cron\` expression with 6 fields (sec min hour day month weekday), e.g. \`0 */5 * * * *\``,
      ),
    );
    return problems;
  }
  const why = cronProblem(trigger.cron, timezone);
  if (why) {
    problems.push(
      problem('model.bad_cron', joinPath(path, 'cron'), `${name}: ${why}`),
    );
  }
  return problems;
}

export function triggerProblems(workflow: Workflow): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const kinds = TRIGGER_PACKAGES.join(', ');
  workflow.on.forEach((trigger, i) => {
    const path = joinPath('on', i);
    const name = trigger.id ? `trigger '${trigger.id}'` : `trigger #${i + 1}`;
    if (!trigger.id.trim()) {
      problems.push(
        problem('model.empty_trigger_id', joinPath(path, 'id'), `${name} has no id: add \`id: <name>\` (it names the trigger when it is started)`),
      );
    }
    if (!trigger.uses.trim()) {
      problems.push(problem('model.missing_uses', joinPath(path, 'uses'), `${name} has no \`uses\`: use one of ${kinds}`));
    } else if (!(TRIGGER_PACKAGES as readonly string[]).includes(trigger.uses)) {
      problems.push(
        problem('model.unknown_trigger', joinPath(path, 'uses'), `${name} uses '${trigger.uses}', which is not a trigger: use one of ${kinds}`),
      );
    }
    if (trigger.uses === SCHEDULE_TRIGGER) {
      problems.push(...scheduleProblems(trigger, path, name));
      return;
    }
    if (trigger.cron !== undefined) {
      problems.push(
        problem('model.bad_cron', joinPath(path, 'cron'), `${name}: \`cron\` only applies to \`uses: ${SCHEDULE_TRIGGER}\` triggers`),
      );
    }
    if (trigger.timezone !== undefined) {
      problems.push(
        problem('model.bad_timezone', joinPath(path, 'timezone'), `${name}: \`timezone\` only applies to \`uses: ${SCHEDULE_TRIGGER}\` triggers`),
      );
    }
  });
  return problems;
}
