/** The shared workflow graph canvas (see `flow-canvas.tsx` for the props API). */
export { drawsEveryNode, FlowCanvas, type CanvasDrop, type FlowCanvasProps } from './flow-canvas.tsx';
export { buildEdges, buildNodes, createElementCache, HANDLES, type DiffMark, type FlowEdge, type FlowNode, type FlowNodeData } from './flow-elements.ts';
export { packageIcon } from './node-views.tsx';
export { boundsOf, openingBounds, type Rect } from './view-window.ts';
