/** CodeMirror 6 extensions of the YAML editor: YAML language, colours from the studio's tokens, lint gutter. */
import { defaultKeymap, insertNewlineAndIndent } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { lintGutter } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from '@codemirror/view';
import { tags } from '@lezer/highlight';

const highlight = HighlightStyle.define([
  { tag: [tags.propertyName, tags.definition(tags.propertyName)], color: 'var(--tone-blue)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--tone-green)' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom], color: 'var(--tone-amber)' },
  { tag: [tags.comment, tags.lineComment], color: 'var(--text-faint)', fontStyle: 'italic' },
  { tag: [tags.keyword, tags.meta, tags.labelName], color: 'var(--tone-violet)' },
  { tag: [tags.punctuation, tags.separator, tags.squareBracket, tags.brace], color: 'var(--text-muted)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', background: 'var(--bg)', color: 'var(--text)', fontSize: '13px' },
  '.cm-scroller': { fontFamily: 'var(--font-mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--text)' },
  '.cm-cursor': { borderLeftColor: 'var(--text)' },
  '.cm-gutters': { background: 'var(--surface)', color: 'var(--text-faint)', borderRight: '1px solid var(--border)' },
  '.cm-activeLine': { background: 'color-mix(in srgb, var(--accent) 6%, transparent)' },
  '.cm-activeLineGutter': { background: 'var(--surface-2)' },
  '&.cm-focused .cm-selectionBackground, .cm-selectionBackground': { background: 'color-mix(in srgb, var(--accent) 25%, transparent) !important' },
  '&.cm-focused': { outline: '2px solid var(--focus)', outlineOffset: '-2px' },
  '.cm-tooltip': { background: 'var(--surface-raised)', color: 'var(--text)', border: '1px solid var(--border)' },
});

/** The editor's extensions; `keys` are the designer's own bindings (undo/redo/deploy go first). */
export function editorExtensions(keys: Extension): Extension[] {
  return [
    keys,
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    yaml(),
    syntaxHighlighting(highlight),
    lintGutter(),
    keymap.of([{ key: 'Enter', run: insertNewlineAndIndent }, ...defaultKeymap]),
    theme,
    EditorView.lineWrapping,
  ];
}
