/**
 * One memoised component per node kind. React Flow passes each the node's `data` object, which
 * `flow-elements.ts` keeps identical while the node is unchanged, so a state or problem update
 * renders only the nodes it touches.
 */
import { memo } from 'react';
import Link from 'next/link';
import type { NodeProps, NodeTypes } from '@xyflow/react';
import { Icon, type IconName } from '../ui/icons.tsx';
import type { FlowNode } from './flow-elements.ts';
import styles from './graph-nodes.module.css';
import { NodeFrame } from './node-frame.tsx';

type Props = NodeProps<FlowNode>;

/** The icon of an act's package (`acts.core.irq` waits for a person, …). */
export function packageIcon(uses: string | undefined): IconName {
  const name = uses?.split('.').pop() ?? '';
  if (name === 'irq') return 'person';
  if (name === 'subflow') return 'workflow';
  if (name === 'msg' || name === 'push') return 'send';
  if (name === 'code') return 'activity';
  return 'plug';
}

function Badges({ badges }: { badges: readonly string[] }) {
  if (!badges.length) return null;
  const text = badges.join(' · ');
  return (
    <span className={styles.badges} title={text}>
      {text}
    </span>
  );
}

function Title({ icon, kind, label }: { icon: IconName; kind?: string; label: string }) {
  return (
    <span className={styles.title}>
      <Icon name={icon} size={14} className={styles.kindIcon} />
      {kind ? <span className={styles.kind}>{kind}</span> : null}
      <span className={styles.label} title={label}>
        {label}
      </span>
    </span>
  );
}

export const StepNode = memo(function StepNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon="workflow" kind="Step" label={data.node.label} />
      <Badges badges={data.node.badges} />
    </NodeFrame>
  );
});

export const BranchNode = memo(function BranchNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon="send" kind="Branch" label={data.node.label} />
      <Badges badges={data.node.badges} />
    </NodeFrame>
  );
});

export const ActNode = memo(function ActNode({ data, selected }: Props) {
  const { node } = data;
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon={packageIcon(node.uses)} label={node.label} />
      <span className={styles.uses}>
        {node.subflow ? (
          <Link className="nodrag" href={`/models/${encodeURIComponent(node.subflow)}`} title={`Open the child model ${node.subflow}`}>
            subflow → {node.subflow}
          </Link>
        ) : (
          <>
            {node.uses ?? 'no package'}
            {node.badges.length ? ` · ${node.badges.join(' · ')}` : ''}
          </>
        )}
      </span>
    </NodeFrame>
  );
});

export const RuleNode = memo(function RuleNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon={data.node.kind === 'timeout' ? 'clock' : 'alert'} label={data.node.label} />
    </NodeFrame>
  );
});

export const TriggerNode = memo(function TriggerNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon="calendar" kind="Trigger" label={data.node.label} />
    </NodeFrame>
  );
});

export const TerminalNode = memo(function TerminalNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <Title icon={data.node.kind === 'end' ? 'stop' : 'play'} label={data.node.label} />
    </NodeFrame>
  );
});

/** Finished steps folded into one node (run page): a click on it (the canvas's `onSelect`) unfolds them. */
export const StretchNode = memo(function StretchNode({ data, selected }: Props) {
  return (
    <NodeFrame data={data} selected={selected}>
      <button type="button" className={styles.expand} aria-label={`${data.node.label}: show them`} title="Show these steps">
        <Icon name="check" size={14} className={styles.kindIcon} />
        <span className={styles.label}>{data.node.label}</span>
      </button>
      <Badges badges={data.node.badges} />
    </NodeFrame>
  );
});

/** The `nodeTypes` of the canvas (a module constant, so React Flow never sees a new object). */
export const NODE_TYPES = {
  start: TerminalNode,
  end: TerminalNode,
  trigger: TriggerNode,
  step: StepNode,
  branch: BranchNode,
  act: ActNode,
  hook: ActNode,
  catch: RuleNode,
  timeout: RuleNode,
  stretch: StretchNode,
} satisfies Record<FlowNode['type'] & string, NodeTypes[string]>;
