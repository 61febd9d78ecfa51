/**
 * Structure of the flow: `next` targets (section 0.1), branch `needs` (section 0.3), timeout
 * durations, hook events and act packages.
 */
import { parseDuration } from './duration.ts';
import { joinPath } from './paths.ts';
import { problem } from './problem.ts';
import { HOOK_EVENTS, type ModelProblem, type Step, type Workflow } from './types.ts';
import type { ValidateContext } from './validate-context.ts';
import { walkWorkflow } from './walk.ts';
import { outcomesProblems } from '../../../vocab/outcomes.ts';
import { answerFormProblems } from '../../../vocab/answer-form-problems.ts';

export function nextProblems(workflow: Workflow): ModelProblem[] {
  const stepIds = new Set<string>();
  const otherKinds = new Map<string, string>();
  const steps: { step: Step; path: string }[] = [];
  walkWorkflow(workflow, {
    step: (step, path) => {
      stepIds.add(step.id);
      steps.push({ step, path });
    },
    branch: (b) => otherKinds.set(b.id, 'a branch'),
    act: (a) => otherKinds.set(a.id, 'an act'),
    trigger: (t) => otherKinds.set(t.id, 'a trigger'),
  });
  const problems: ModelProblem[] = [];
  for (const { step, path } of steps) {
    if (!step.next || stepIds.has(step.next)) continue;
    const kind = otherKinds.get(step.next);
    const why = kind ? `'${step.next}' is ${kind}, not a step` : `there is no step '${step.next}'`;
    problems.push(
      problem('model.unknown_next', joinPath(path, 'next'), `\`next\` must name a step of this model: ${why}`),
    );
  }
  return problems;
}

/** Indices of the branches in the same needs cycle as each branch (mutually reachable). */
function needsCycles(edges: number[][]): number[][] {
  const reach = edges.map((_, start) => {
    const seen = new Set<number>();
    const todo = [...edges[start]];
    while (todo.length) {
      const n = todo.pop()!;
      if (seen.has(n)) continue;
      seen.add(n);
      todo.push(...edges[n]);
    }
    return seen;
  });
  const cycles: number[][] = [];
  reach.forEach((from, i) => {
    if (!from.has(i)) return;
    const members = [...from].filter((j) => reach[j].has(i)).sort((a, b) => a - b);
    if (members[0] === i) cycles.push(members);
  });
  return cycles;
}

export function needsProblems(workflow: Workflow): ModelProblem[] {
  const problems: ModelProblem[] = [];
  walkWorkflow(workflow, {
    step(step, stepPath) {
      if (!step.branches.some((b) => b.needs.length > 0)) return;
      const index = new Map<string, number>();
      step.branches.forEach((b, i) => index.has(b.id) || index.set(b.id, i));
      const siblings = [...index.keys()].join(', ');
      const edges = step.branches.map((branch, i) => {
        const targets: number[] = [];
        const base = joinPath(joinPath(joinPath(stepPath, 'branches'), i), 'needs');
        branch.needs.forEach((need, k) => {
          const target = index.get(need);
          if (need === branch.id) {
            problems.push(problem('model.unknown_needs', joinPath(base, k), `branch '${branch.id}' cannot need itself`));
          } else if (target === undefined) {
            problems.push(
              problem(
                'model.unknown_needs',
                joinPath(base, k),
                `branch '${branch.id}' needs '${need}', which is not a branch of step '${step.id}' (its branches: ${siblings})`,
              ),
            );
          } else {
            targets.push(target);
          }
        });
        return targets;
      });
      // an `else` branch waits for every other branch: one that needs it closes a cycle
      step.branches.forEach((branch, i) => {
        if (branch.else) step.branches.forEach((other, j) => j !== i && !other.else && edges[i].push(j));
      });
      for (const cycle of needsCycles(edges)) {
        const names = cycle.map((i) => step.branches[i].id);
        const elses = cycle.filter((i) => step.branches[i].else).map((i) => `'${step.branches[i].id}'`);
        const at = cycle.find((i) => !step.branches[i].else) ?? cycle[0];
        const why = elses.length > 0 ? ` (${elses.join(', ')} ${elses.length === 1 ? 'is an `else` branch, which waits' : 'are `else` branches, which wait'} for every other branch)` : '';
        problems.push(
          problem(
            'model.needs_cycle',
            joinPath(joinPath(joinPath(stepPath, 'branches'), at), 'needs'),
            `branches ${names.join(', ')} need each other in a cycle${why}, so none of them can ever start`,
          ),
        );
      }
    },
  });
  return problems;
}

export function timeoutProblems(workflow: Workflow): ModelProblem[] {
  const problems: ModelProblem[] = [];
  walkWorkflow(workflow, {
    timeout(rule, path) {
      if (parseDuration(rule.on) !== null) return;
      const got = rule.on ? `'${rule.on}' is not a duration` : 'the rule has no `on` duration';
      problems.push(
        problem(
          'model.bad_timeout',
          joinPath(path, 'on'),
          `timeout ${got}: write <integer><s|m|h|d>, e.g. \`30s\`, \`5m\`, \`2h\` or \`1d\``,
        ),
      );
    },
  });
  return problems;
}

export function actProblems(workflow: Workflow, ctx: ValidateContext): ModelProblem[] {
  const problems: ModelProblem[] = [];
  const events = HOOK_EVENTS.join(', ');
  walkWorkflow(workflow, {
    act(act, path, place) {
      if (!act.uses.trim()) {
        problems.push(
          problem(
            'model.missing_uses',
            joinPath(path, 'uses'),
            'this act has no `uses`: name the package it runs, e.g. `uses: acts.core.irq`',
          ),
        );
      } else if (ctx.knownPackage && !ctx.knownPackage(act.uses)) {
        problems.push(
          problem(
            'model.unknown_package',
            joinPath(path, 'uses'),
            `unknown package '${act.uses}': check the spelling against the package list (built-ins are acts.core.*, acts.transform.*; others must be registered first)`,
          ),
        );
      } else if (ctx.packageOff?.(act.uses)) {
        problems.push(problem('model.package_off', joinPath(path, 'uses'), `'${act.uses}' cannot run here: ${ctx.packageOff(act.uses)}`));
      } else {
        // an interrupt's declared outcomes and answer form are told in sentences (the rest of its params schema below)
        const irq = act.uses === 'acts.core.irq';
        const told = [
          ...(irq ? outcomesProblems(act.params) : []).map((o) => problem('model.bad_outcomes', o.at.reduce(joinPath, joinPath(path, 'params')), o.message)),
          ...(irq ? answerFormProblems(act.params) : []).map((o) => problem('model.bad_answer_form', o.at.reduce(joinPath, joinPath(path, 'params')), o.message)),
        ];
        problems.push(...told);
        const wrong = told.length === 0 && ctx.checkParams?.(act.uses, act.params);
        if (wrong) problems.push(problem('model.invalid_params', joinPath(path, 'params'), `${wrong}: every run of this act would fail so`));
      }
      if (act.on === undefined) return;
      if (!(HOOK_EVENTS as readonly string[]).includes(act.on)) {
        problems.push(
          problem('model.bad_hook', joinPath(path, 'on'), `unknown hook event '${act.on}': use one of ${events}`),
        );
      } else if (place === 'acts') {
        problems.push(
          problem(
            'model.bad_hook',
            joinPath(path, 'on'),
            `\`on: ${act.on}\` only works for acts in a \`setup\` list: move this act into a \`setup\` list (of the workflow, a step or an act)`,
          ),
        );
      }
    },
  });
  return problems;
}
