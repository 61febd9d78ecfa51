/**
 * The designer's commands over its document: adding, removing, duplicating, wrapping an act in a
 * step, copying and pasting, each one graph edit of the YAML, with the selection following the
 * node an edit made or changed.
 *
 * An edit given with a preview of its graph (a rename) is drawn at once and written to the text
 * after the next paint (`DesignerDoc.editSoon`); it keeps the selection where it is.
 *
 * State: `selected` (a node id or null; it is dropped when its node disappears), `clipboard`
 * (the copied act, or null) and `editError` (the last refused edit's message, cleared by the next
 * edit that works).
 */
'use client';
import { useCallback, useState } from 'react';
import { DesignerEditError, duplicateNode, removeNode, wrapInStep, type DesignerGraph, type EditResult, type GraphNode } from './model/index.ts';
import { addActAt, addBranchTo, addStepAfter, type ActTemplate } from './designer-actions.ts';
import { elementValues } from './element-values.ts';
import type { JsonSchema } from './schema-form.tsx';
import type { DesignerDoc } from './use-designer-doc.ts';

export interface DesignerCommands {
  selected: string | null;
  select(nodeId: string | null): void;
  editError: string | null;
  /** Applies a graph edit; with `preview` (the graph it will give, or null when unknown) it is drawn first and written after the next paint. */
  run(change: (source: string) => EditResult, preview?: (graph: DesignerGraph) => DesignerGraph | null): void;
  addAct(target: string | null, uses: string): void;
  addStep(): void;
  addBranch(): void;
  remove(): void;
  duplicate(): void;
  wrapInStep(): void;
  copy(): boolean;
  paste(): boolean;
}

/** What the node commands may do to `node`: remove and duplicate any node of the model's lists, wrap an act of a step's chain. */
export function nodeCommandsFor(node: GraphNode | undefined): { remove: boolean; duplicate: boolean; wrap: boolean } {
  const listed = !!node && node.kind !== 'start' && node.kind !== 'end';
  return { remove: listed, duplicate: listed, wrap: !!node && node.kind === 'act' && /\.acts\[\d+\]$/.test(node.path) };
}

export function useDesignerCommands(doc: DesignerDoc, schemas: ReadonlyMap<string, JsonSchema>): DesignerCommands {
  const [selectedId, select] = useState<string | null>(null);
  const [clipboard, setClipboard] = useState<ActTemplate | null>(null);
  const [editError, setEditError] = useState<string | null>(null);
  const { graph } = doc;
  const selectedNode = selectedId ? graph.nodes.find((n) => n.id === selectedId) : undefined;
  const selected = selectedNode ? selectedId : null;

  const refused = useCallback((err: unknown) => {
    if (!(err instanceof DesignerEditError)) throw err;
    setEditError(err.message.replace(/^edit\.[a-z_]+: /, ''));
  }, []);
  const run = useCallback(
    (change: (source: string) => EditResult, preview?: (graph: DesignerGraph) => DesignerGraph | null) => {
      if (preview) {
        setEditError(null);
        const result = doc.editSoon(change, preview, refused);
        if (result) select(result.nodeId);
        return;
      }
      try {
        const result = doc.edit(change);
        setEditError(null);
        select(result.nodeId);
      } catch (err) {
        refused(err);
      }
    },
    [doc, refused],
  );

  return {
    selected,
    select,
    editError,
    run,
    addAct: (target, uses) => run((s) => addActAt(s, graph, target, { uses, schema: schemas.get(uses) as Record<string, unknown> | undefined })),
    addStep: () => run((s) => addStepAfter(s, graph, selected)),
    addBranch: () => run((s) => addBranchTo(s, graph, selected)),
    remove: () => {
      if (selectedNode && nodeCommandsFor(selectedNode).remove) run((s) => removeNode(s, selectedNode.id));
    },
    duplicate: () => {
      if (selectedNode && nodeCommandsFor(selectedNode).duplicate) run((s) => duplicateNode(s, selectedNode.id));
    },
    wrapInStep: () => {
      if (selectedNode && nodeCommandsFor(selectedNode).wrap) run((s) => wrapInStep(s, selectedNode.id));
    },
    copy: () => {
      if (selectedNode?.kind !== 'act' || !selectedNode.uses) return false;
      const values = elementValues(doc.flush(), selectedNode.path);
      setClipboard({ uses: selectedNode.uses, name: typeof values.name === 'string' ? values.name : undefined, params: values.params });
      return true;
    },
    paste: () => {
      if (!clipboard) return false;
      run((s) => addActAt(s, graph, selected, clipboard));
      return true;
    },
  };
}
