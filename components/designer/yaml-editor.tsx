/**
 * The CodeMirror 6 YAML editor, controlled: `value` in, `onChange` out, `diagnostics` underlined.
 *
 * State: the EditorView lives in a ref for the component's lifetime, made once the page has painted
 * (`afterPaint`; null before, when the latest value and diagnostics wait in a ref), and the number
 * of diagnostics it shows (`shown`). An outside change of `value`
 * (a graph edit, undo, a loaded version) is applied as the smallest replacement, tagged `external`
 * so it is not reported back through `onChange`; the cursor stays where it was when possible.
 */
'use client';
import { setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Annotation, Compartment, EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap, type KeyBinding } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { afterPaint } from '../ui/after-paint.ts';
import { editorExtensions } from './editor-setup.ts';

const external = Annotation.define<boolean>();

export interface YamlEditorProps {
  value: string;
  onChange: (text: string) => void;
  diagnostics: readonly Diagnostic[];
  /** Bindings that win over the editor's own (undo, redo, deploy …). */
  keys?: readonly KeyBinding[];
  readOnly?: boolean;
  label: string;
}

/** The one replacement that turns `from` into `to` (common prefix and suffix left alone). */
function smallestChange(from: string, to: string): { from: number; to: number; insert: string } {
  let start = 0;
  while (start < from.length && start < to.length && from[start] === to[start]) start++;
  let endA = from.length;
  let endB = to.length;
  while (endA > start && endB > start && from[endA - 1] === to[endB - 1]) {
    endA--;
    endB--;
  }
  return { from: start, to: endA, insert: to.slice(start, endB) };
}

/** Underlines `diagnostics`; `shown` counts what the editor shows: none after none is no transaction (most edits). */
function showDiagnostics(editor: EditorView, diagnostics: readonly Diagnostic[], shown: { current: number }): void {
  if (diagnostics.length === 0 && shown.current === 0) return;
  const fitting = diagnostics.filter((d) => d.to <= editor.state.doc.length);
  shown.current = fitting.length;
  editor.dispatch(setDiagnostics(editor.state, fitting));
}

export function YamlEditor({ value, onChange, diagnostics, keys = [], readOnly = false, label }: YamlEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const handlers = useRef({ onChange, keys });
  handlers.current = { onChange, keys };
  const latest = useRef({ value, diagnostics, readOnly });
  const shown = useRef(0);
  latest.current = { value, diagnostics, readOnly };
  /** Whether the text can be edited, switched without a new view (an older version made editable). */
  const editable = useRef(new Compartment());

  useEffect(() => {
    const forward: KeyBinding[] = ['Mod-z', 'Mod-Shift-z', 'Mod-y', 'Mod-s'].map((key) => ({
      key,
      run: () => handlers.current.keys.find((k) => k.key === key)?.run?.(view.current!) ?? false,
    }));
    let editor: EditorView | null = null;
    // made once the page has painted: on a big model the graph shows first (the editor of 240 KB took ~100-200 ms)
    const cancel = afterPaint(() => {
      editor = new EditorView({
        parent: host.current!,
        state: EditorState.create({
          doc: latest.current.value,
          extensions: [
            ...editorExtensions(Prec.highest(keymap.of(forward))),
            editable.current.of(EditorState.readOnly.of(latest.current.readOnly)),
            EditorView.contentAttributes.of({ 'aria-label': label, 'data-testid': 'yaml-editor' }),
            EditorView.updateListener.of((update) => {
              if (update.docChanged && !update.transactions.some((tr) => tr.annotation(external))) {
                handlers.current.onChange(update.state.doc.toString());
              }
            }),
          ],
        }),
      });
      view.current = editor;
      showDiagnostics(editor, latest.current.diagnostics, shown);
    });
    return () => {
      cancel();
      editor?.destroy();
      view.current = null;
    };
    // The view is created once; later values arrive through the effects below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: smallestChange(current, value), annotations: external.of(true) });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: editable.current.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  useEffect(() => {
    if (view.current) showDiagnostics(view.current, diagnostics, shown);
  }, [diagnostics]);

  return <div ref={host} style={{ height: '100%', overflow: 'hidden' }} />;
}
