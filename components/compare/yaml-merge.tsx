/**
 * The two versions' YAML side by side (@codemirror/merge), read-only: changed lines marked, the
 * selected node's lines highlighted in both texts and scrolled into view.
 *
 * State: the MergeView lives in a ref, made once the host is mounted and again when either text
 * changes; the focus follows `focus` without a new view.
 */
'use client';
import { MergeView } from '@codemirror/merge';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import type { SourceRange } from '../../vocab/graph.ts';
import { editorExtensions } from '../designer/editor-setup.ts';
import styles from './compare.module.css';
import { focusRange, nodeFocus } from './node-focus.ts';

export interface YamlMergeProps {
  before: string;
  after: string;
  /** The selected node's range in each text (absent on the side it is not in). */
  focus: { before?: SourceRange; after?: SourceRange } | null;
  beforeLabel: string;
  afterLabel: string;
}

const readOnly = [EditorState.readOnly.of(true), EditorView.editable.of(false), nodeFocus];

export function YamlMerge({ before, after, focus, beforeLabel, afterLabel }: YamlMergeProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<MergeView | null>(null);

  useEffect(() => {
    if (!host.current) return;
    const merge = new MergeView({
      a: { doc: before, extensions: [editorExtensions([]), readOnly, EditorView.contentAttributes.of({ 'aria-label': beforeLabel })] },
      b: { doc: after, extensions: [editorExtensions([]), readOnly, EditorView.contentAttributes.of({ 'aria-label': afterLabel })] },
      parent: host.current,
      gutter: true,
    });
    view.current = merge;
    return () => {
      merge.destroy();
      view.current = null;
    };
  }, [before, after, beforeLabel, afterLabel]);

  useEffect(() => {
    const merge = view.current;
    if (!merge) return;
    // both editors sit in one scroller: scroll the new text to the node, or the old one when it was removed
    focusRange(merge.a, focus?.before, !focus?.after);
    focusRange(merge.b, focus?.after, true);
  }, [focus, before, after]);

  return <div ref={host} className={styles.merge} data-testid="yaml-merge" />;
}
