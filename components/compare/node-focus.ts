/**
 * A CodeMirror extension that marks the lines of one range (the selected node's YAML) with
 * `cm-node-focus` and `data-node-focus`, set with `focusRange`; the range follows edits.
 */
import { StateEffect, StateField, type EditorState, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, type DecorationSet } from '@codemirror/view';

const setFocus = StateEffect.define<{ from: number; to: number } | null>();

const focusLine = Decoration.line({ class: 'cm-node-focus', attributes: { 'data-node-focus': 'true' } });

function linesOf(state: EditorState, from: number, to: number): DecorationSet {
  const ranges: Range<Decoration>[] = [];
  const end = Math.min(to, state.doc.length);
  for (let pos = Math.min(from, end); pos <= end; ) {
    const line = state.doc.lineAt(pos);
    ranges.push(focusLine.range(line.from));
    pos = line.to + 1;
  }
  return Decoration.set(ranges);
}

const focusField = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(decorations, tr) {
    let next = decorations.map(tr.changes);
    for (const effect of tr.effects) if (effect.is(setFocus)) next = effect.value ? linesOf(tr.state, effect.value.from, effect.value.to) : Decoration.none;
    return next;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export const nodeFocus: Extension = [
  focusField,
  EditorView.baseTheme({
    '.cm-node-focus': { boxShadow: 'inset 4px 0 0 var(--accent, #1d63d6)', backgroundImage: 'linear-gradient(color-mix(in srgb, var(--accent, #1d63d6) 14%, transparent), color-mix(in srgb, var(--accent, #1d63d6) 14%, transparent))' },
  }),
];

/** Marks `range`'s lines in `view` (none for null) and, when `scroll`, brings its first line into view. */
export function focusRange(view: EditorView, range: { start: number; end: number } | null | undefined, scroll: boolean): void {
  const value = range ? { from: range.start, to: Math.max(range.start, range.end - 1) } : null;
  view.dispatch({ effects: [setFocus.of(value), ...(value && scroll ? [EditorView.scrollIntoView(value.from, { y: 'start', yMargin: 24 })] : [])] });
}
