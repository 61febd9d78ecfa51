/**
 * Visits every node of a workflow with its document path, in field order: the workflow's setup acts,
 * its steps (each step's setup, acts, branches with their steps, catch and timeout steps), then the
 * triggers. Act `setup` lists nest recursively. Acts inside package params (block/parallel bodies)
 * are data, not nodes, and are not visited.
 */
import { joinPath } from './paths.ts';
import type { Act, Branch, Catch, Step, Timeout, Trigger, Workflow } from './types.ts';

/** Where an act sits: a step's `acts` chain, or a `setup` list (where `on:` hooks are allowed). */
export type ActPlace = 'acts' | 'setup';

export interface WorkflowVisitor {
  step?(step: Step, path: string): void;
  branch?(branch: Branch, path: string, owner: Step, ownerPath: string): void;
  act?(act: Act, path: string, place: ActPlace): void;
  catch?(rule: Catch, path: string): void;
  timeout?(rule: Timeout, path: string): void;
  trigger?(trigger: Trigger, path: string): void;
}

function eachIn<T>(items: readonly T[] | undefined, path: string, field: string, fn: (item: T, path: string) => void) {
  if (!items) return;
  const base = joinPath(path, field);
  items.forEach((item, i) => fn(item, joinPath(base, i)));
}

/** Calls the visitor's callbacks for every node of `workflow`, parents before children. */
export function walkWorkflow(workflow: Workflow, visitor: WorkflowVisitor): void {
  const rules = (owner: Step | Act, path: string) => {
    eachIn(owner.catches, path, 'catches', (rule, p) => {
      visitor.catch?.(rule, p);
      steps(rule.steps, p);
    });
    eachIn(owner.timeout, path, 'timeout', (rule, p) => {
      visitor.timeout?.(rule, p);
      steps(rule.steps, p);
    });
  };
  const acts = (list: Act[] | undefined, path: string, field: string, place: ActPlace) =>
    eachIn(list, path, field, (act, p) => {
      visitor.act?.(act, p, place);
      acts(act.setup, p, 'setup', 'setup');
      rules(act, p);
    });
  const steps = (list: Step[] | undefined, path: string) =>
    eachIn(list, path, 'steps', (step, p) => {
      visitor.step?.(step, p);
      acts(step.setup, p, 'setup', 'setup');
      acts(step.acts, p, 'acts', 'acts');
      eachIn(step.branches, p, 'branches', (branch, bp) => {
        visitor.branch?.(branch, bp, step, p);
        steps(branch.steps, bp);
      });
      rules(step, p);
    });

  acts(workflow.setup, '', 'setup', 'setup');
  steps(workflow.steps, '');
  eachIn(workflow.on, '', 'on', (trigger, p) => visitor.trigger?.(trigger, p));
}
