/**
 * Two versions of a claims workflow for the version comparison's tests (the API's
 * `models.structuralDiff` in test/, the comparison page in e2e/): from version 1 to 2 one act's
 * params change (`triage`), a step gets a new id (`review` → `assessment`, its act `assess` moves
 * with it), an act is added (`fraud_check`) and one removed (`legacy_check`). `fillerSteps` puts
 * that many steps first, so the changes sit further down the text.
 */

export function claimsV1(id: string, fillerSteps = 0): string {
  const filler = Array.from({ length: fillerSteps }, (_, i) => `  - id: prepare_${i}\n    name: Preparation ${i}\n    acts:\n      - { id: note_${i}, uses: acts.core.msg, params: { to: ops, text: 'step ${i}' } }\n`).join('');
  return `id: ${id}
name: Claims
steps:
${filler}  - id: intake
    name: Intake
    acts:
      - { uses: acts.core.irq, key: describe, params: { title: Describe the claim } }
      - { id: triage, uses: acts.core.irq, params: { title: Triage } }
  - id: review
    name: Review
    acts:
      - { id: assess, uses: acts.core.irq, params: { title: Assess } }
      - { id: legacy_check, uses: acts.core.irq, params: { title: Old check } }
`;
}

export function claimsV2(id: string, fillerSteps = 0): string {
  return claimsV1(id, fillerSteps)
    .replace('title: Triage }', 'title: Triage now }')
    .replace('id: review\n    name: Review', 'id: assessment\n    name: Assessment')
    .replace('{ id: legacy_check, uses: acts.core.irq, params: { title: Old check } }', '{ id: fraud_check, uses: acts.core.irq, params: { title: Fraud check } }');
}
