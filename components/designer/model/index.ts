/**
 * The designer's graph model, free of React and the DOM: YAML → graph (`toGraph`), layout
 * (`layout`), graph edits → YAML (`edits.ts`), their graphs drawn beforehand (`preview.ts`) and validation problems → nodes (`problems.ts`).
 */
export * from '../../../vocab/graph.ts';
export { toGraph } from '../../../vocab/model-tree/to-graph.ts';
export { layout, DEFAULT_SIZES, type GraphLayout, type LayoutDirection, type LayoutOptions, type NodeBox, type Point, type Size } from './layout.ts';
export * from './edits.ts';
export { renamedGraph } from './preview.ts';
export { pinProblems, problemLocator, problemsByNode, type PinnedProblem, type ProblemLike } from './problems.ts';
