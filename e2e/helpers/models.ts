/** Workflow sources the run page specs share (runs.spec.ts, run-replay.spec.ts). */

/** Three interrupt steps in a row: acts `ask1`, `ask2` (YAML ids) and `ask3` (no id: node `step:third/acts[0]`). */
export function threeApprovals(id: string): string {
  return `id: ${id}
name: Three approvals
inputs: { amount: 120 }
steps:
  - id: first
    name: First approval
    acts:
      - { id: ask1, uses: acts.core.irq, key: ask1, params: { title: 'First look at {{ amount }}' } }
  - id: second
    name: Second approval
    acts:
      - { id: ask2, uses: acts.core.irq, key: ask2 }
  - id: third
    name: Third approval
    acts:
      - { uses: acts.core.irq, key: ask3 }
`;
}
