/**
 * The model the heatmap's tests, e2e spec and bench run (issue 14, item 6): step `s1` with an act
 * that waits for a person (`ask`), then step `s2` with one that sets a variable (`set`); `more`
 * appends steps (YAML list items at the steps' indentation).
 */
export function heatModel(id = 'heat', more = ''): string {
  return `id: ${id}
steps:
  - id: s1
    acts:
      - { id: ask, uses: acts.core.irq, key: ask }
  - id: s2
    acts:
      - { id: set, uses: acts.transform.set, params: { a: 1 } }
${more}`;
}
