/** The text of a new workflow: the smallest valid model, ready for steps from the palette. */
export function newWorkflowSource(id = 'new_workflow'): string {
  return `# A new workflow: add steps and acts from the palette, or type here.
id: ${id}
name: New workflow
inputs: {}
`;
}
