/**
 * The model of the 10,000-task speed figures (e2e/helpers/big-run.ts, bench/replay.ts): a parallel
 * act `spread` over `items` (two tasks per item), then the approval `check`.
 */
export function bigRunModel(mid: string): string {
  return `id: ${mid}
name: Ten thousand tasks
inputs: { items: [] }
steps:
  - id: fan
    acts:
      - id: spread
        uses: acts.core.parallel
        params:
          in: '{{ items }}'
          acts:
            - { uses: acts.transform.set, params: { seen: '{{ $index }}' } }
  - id: after
    acts:
      - { id: check, uses: acts.core.irq, key: check }
`;
}
