/**
 * The designer's step-test panes (designers only): the Test panel of the selected step or act and
 * the Tests panel of the saved cases. Their results go up as marks by graph node (`onMarks`; the
 * canvas shows them with TestBadges) and a saved case as a graph edit (`onEdit`, undoable).
 */
'use client';
import type { Dispatch, SetStateAction } from 'react';
import { saveTestCase, type DesignerGraph, type EditResult, type GraphNode } from './model/index.ts';
import { StepTestPanel } from './step-test-panel.tsx';
import { nodeRefOf, runMark, verdictMarks, type TestMark } from './step-test-marks.ts';
import { TestsPanel } from './tests-panel.tsx';
import designer from './designer.module.css';

export interface DesignerTestsProps {
  node: GraphNode | undefined;
  text: string;
  /** The text the graph was drawn from (it lags `text` while typing). */
  graphText: string;
  graph: DesignerGraph;
  deployedId?: string;
  onMarks: Dispatch<SetStateAction<Record<string, TestMark>>>;
  onPick(nodeId: string): void;
  onEdit(change: (source: string) => EditResult): void;
}

export function DesignerTests({ node, text, graphText, graph, deployedId, onMarks, onPick, onEdit }: DesignerTestsProps) {
  const ref = node ? nodeRefOf(node) : null;
  return (
    <>
      {node && ref ? (
        <StepTestPanel
          key={node.id}
          node={node}
          nodeRef={ref}
          source={text}
          deployedId={deployedId}
          onResult={(result) => onMarks((marks) => ({ ...marks, [node.id]: runMark(result) }))}
          onSave={(test) => onEdit((source) => saveTestCase(source, test, node.id))}
        />
      ) : node && (node.kind === 'step' || node.kind === 'act') ? (
        <p className={designer.muted}>Give this node an id to test it.</p>
      ) : null}
      <TestsPanel text={text} listedText={graphText} graph={graph} onPick={onPick} onVerdicts={(verdicts) => onMarks(verdictMarks(graph, verdicts))} />
    </>
  );
}
