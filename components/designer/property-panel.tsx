/**
 * The property panel of the selected node: id and name, `if`, a step's `next`, adding a catch or a
 * timeout to a step or act, an act's params as a form generated from its package's JSON Schema
 * (a subflow's `to` suggests the deployed models), an interrupt's answer fields (`outputs`), a
 * rule's `on`, a schedule trigger's cron and timezone (with the validation's problems at them),
 * the workflow's inputs and adding a trigger to it, adding a setup hook to the workflow, a step
 * or an act. Stateless: each committed field becomes one graph edit through `onEdit`
 * (a function of the YAML text), so the YAML stays the source of truth and every change is one
 * undo step; a new name comes with the graph it gives (`renamedGraph`), drawn before the text is
 * written.
 */
'use client';
import { useMemo } from 'react';
import { addAct, addRule, addTrigger, rename, renamedGraph, setFields, type DesignerGraph, type EditResult, type GraphNode, type ProblemLike } from './model/index.ts';
import { AnswerFields } from './answer-fields.tsx';
import styles from './designer.module.css';
import { elementValues } from './element-values.ts';
import { HookAdder } from './hook-adder.tsx';
import { RawYamlField } from './raw-yaml-field.tsx';
import { RuleAdders } from './rule-adders.tsx';
import { HookDeliveries } from './hook-deliveries.tsx';
import { SCHEDULE_TRIGGER, ScheduleFields } from './schedule-fields.tsx';

/** The package of webhook triggers. */
const HOOK_TRIGGER = 'acts.event.hook';
import { SchemaForm, type JsonSchema } from './schema-form.tsx';
import { TextInput } from './text-input.tsx';
import { TriggerAdder } from './trigger-adder.tsx';

export interface PropertyPanelProps {
  node: GraphNode;
  text: string;
  schemas: ReadonlyMap<string, JsonSchema>;
  stepIds: readonly string[];
  /** The ids of the deployed models (a subflow's `to`). */
  modelIds: readonly string[];
  /** The trigger packages (`acts.event.*`). */
  triggerPackages: readonly string[];
  /** The deployed model's id, when the text is deployed (a hook trigger then shows its endpoint and deliveries). */
  deployedId?: string;
  /** The packages an act may run (a hook's). */
  actPackages: readonly string[];
  /** The validation problems of this node. */
  problems: readonly ProblemLike[];
  /** A graph edit; `preview`: the graph it gives, drawn before its text is written (null: unknown). */
  onEdit: (change: (source: string) => EditResult, preview?: (graph: DesignerGraph) => DesignerGraph | null) => void;
}

const text = (value: unknown) => (value === undefined || value === null ? '' : String(value));
const orUndefined = (value: string) => value.trim() || undefined;

const SUBFLOW = 'acts.core.subflow';
const IRQ = 'acts.core.irq';

export function PropertyPanel({ node, text: source, schemas, stepIds, modelIds, triggerPackages, actPackages, problems, deployedId, onEdit }: PropertyPanelProps) {
  const values = useMemo(() => elementValues(source, node.path), [source, node.path]);
  const set = (fields: Record<string, unknown>) => onEdit((s) => setFields(s, node.id, fields));
  const named = node.kind !== 'catch' && node.kind !== 'timeout' && node.kind !== 'end';

  if (node.kind === 'end') return <p className={styles.muted}>The end of the workflow. Select a step, branch or act to edit it.</p>;
  return (
    <form className={styles.panelForm} onSubmit={(e) => e.preventDefault()} aria-label={`Properties of ${node.label}`}>
      <p className={styles.panelKind}>
        {node.kind === 'start' ? 'Workflow' : node.kind}
        {node.uses ? <code> {node.uses}</code> : null}
      </p>
      {named ? (
        <>
          <TextInput label="Id" mono value={text(values.id)} onCommit={(id) => onEdit((s) => rename(s, node.id, { id }))} />
          <TextInput label="Name" value={text(values.name)} onCommit={(name) => onEdit((s) => rename(s, node.id, { name }), (graph) => renamedGraph(graph, node.id, name))} />
        </>
      ) : null}
      {node.kind === 'catch' || node.kind === 'timeout' || node.kind === 'hook' ? (
        <TextInput label={node.kind === 'timeout' ? 'After (e.g. 2h, 1d)' : node.kind === 'hook' ? 'On event' : 'Error code (empty: any error)'} mono value={text(values.on)} onCommit={(on) => set({ on: orUndefined(on) })} />
      ) : null}
      {node.kind === 'step' || node.kind === 'branch' || node.kind === 'act' ? (
        <TextInput label="Run only if" mono hint="An expression, e.g. amount > 1000" value={text(values.if)} onCommit={(v) => set({ if: orUndefined(v) })} />
      ) : null}
      {node.kind === 'step' ? (
        <>
          <TextInput label="Next step" mono list="designer-step-ids" hint="Jump to this step when done (a loop if it is earlier)" value={text(values.next)} onCommit={(v) => set({ next: orUndefined(v) })} />
          <datalist id="designer-step-ids">
            {stepIds.map((id) => (
              <option key={id} value={id} />
            ))}
          </datalist>
        </>
      ) : null}
      {node.kind === 'trigger' && node.uses === HOOK_TRIGGER && deployedId && text(values.id) ? <HookDeliveries modelId={deployedId} triggerId={text(values.id)} /> : null}
      {node.kind === 'trigger' && node.uses === SCHEDULE_TRIGGER ? (
        <ScheduleFields path={node.path} cron={text(values.cron)} timezone={text(values.timezone)} problems={problems} onSet={set} />
      ) : null}
      {node.kind === 'act' || node.kind === 'hook' || node.kind === 'trigger' ? (
        <fieldset className={styles.fieldset}>
          <legend>Params</legend>
          <SchemaForm schema={node.uses ? schemas.get(node.uses) : undefined} value={values.params} onChange={(params) => set({ params })} choices={node.uses === SUBFLOW ? { to: modelIds } : undefined} />
        </fieldset>
      ) : null}
      {node.kind === 'act' && node.uses === IRQ ? <AnswerFields outputs={values.outputs} onSet={(outputs) => set({ outputs })} /> : null}
      {node.kind === 'step' || node.kind === 'act' ? (
        <RuleAdders
          onAddCatch={(on) => onEdit((s) => addRule(s, { owner: node.id, field: 'catches', on }))}
          onAddTimeout={(on) => onEdit((s) => addRule(s, { owner: node.id, field: 'timeout', on }))}
        />
      ) : null}
      {node.kind === 'start' || node.kind === 'step' || node.kind === 'act' ? (
        <HookAdder packages={actPackages} onAdd={(on, uses) => onEdit((s) => addAct(s, { parent: node.id, uses, on, schema: schemas.get(uses) as Record<string, unknown> | undefined }))} />
      ) : null}
      {node.kind === 'start' ? (
        <>
          <RawYamlField label="Inputs" value={values.inputs} onChange={(inputs) => onEdit((s) => setFields(s, 'workflow', { inputs }))} />
          <TriggerAdder packages={triggerPackages} onAdd={(uses) => onEdit((s) => addTrigger(s, uses))} />
        </>
      ) : null}
    </form>
  );
}
