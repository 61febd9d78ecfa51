/**
 * FlowCanvas — the React Flow canvas of a workflow graph, shared by the designer and the run page.
 *
 *   <FlowCanvas
 *     graph={graph}                // DesignerGraph from toGraph(source)
 *     layout={layout}              // GraphLayout from layout(graph, { pinned })
 *     states={{ 'step:manager': 'interrupted' }}   // optional: node id → task state (run page)
 *     marks={{ 'step:manager': 'changed' }}        // optional: node id → diff mark (version comparison)
 *     problems={problemsByNode(graph, problems)}   // optional: node id → problems (red badge)
 *     selected={nodeId} onSelect={(id) => …}       // optional: id or null (pane click)
 *     onNodeMenu={(id, { x, y }) => …}             // optional: a node's context menu was asked for (client coordinates)
 *     editable onNodeDragStop={(id, { x, y }) => …}// optional: drag nodes; positions are the caller's
 *     drop={{ type: PACKAGE_MIME, onDrop: (nodeId, payload) => … }} // optional: drops onto nodes
 *     dimmed                       // optional: grey the graph out (last good graph of broken YAML)
 *     fitKey={model.id}            // optional: re-fit the view when this changes
 *     fitOnOpen={false}            // optional: the caller moves the view itself (default: fit the graph)
 *     direction="LR"               // optional: the layout runs left to right (handles on the sides)
 *     onUserMove={() => …}         // optional: the user panned or zoomed (not the code)
 *     ariaLabel="Workflow graph"
 *   >{children}</FlowCanvas>      // optional: rendered inside React Flow (panels, view movers)
 *
 * The parent must give the canvas a height (it fills 100 % of it). Node and edge objects keep their
 * identity while unchanged (`flow-elements.ts`), so updating one state renders one node. The canvas
 * brings its own React Flow store (`ReactFlowProvider`, without initial nodes): React Flow then
 * takes the nodes and edges in once, not twice (as initial state and again as props). A big graph
 * (more than 120 nodes) is handed to React Flow a window at a time (view-window.ts): the nodes
 * around the view, the window moving when the view leaves it; such a canvas fits its opening view
 * itself, as React Flow's `fitView` did (the first pane's nodes).
 *
 * State: `dragging` — positions of nodes being dragged (set on each drag move, cleared when the
 * drag stops and the caller has been told via `onNodeDragStop`); `shownWindow` — a big graph's window
 * (null until the pane's size is known: nothing is handed over before); the element cache lives
 * in a ref.
 */
'use client';
import '@xyflow/react/dist/style.css';
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type ReactNode } from 'react';
import { Background, Controls, getViewportForBounds, ReactFlow, ReactFlowProvider, useReactFlow, useStore, useStoreApi, type FitViewOptions, type NodeChange, type NodeMouseHandler, type OnMove, type OnNodeDrag } from '@xyflow/react';
import type { DesignerGraph, GraphLayout, LayoutDirection, Point, ProblemLike } from '../designer/model/index.ts';
import { EDGE_TYPES } from './back-edge.tsx';
import styles from './flow-canvas.module.css';
import { buildEdges, buildNodes, createElementCache, inWindow, type DiffMark, type FlowNode } from './flow-elements.ts';
import { NODE_TYPES } from './node-views.tsx';
import { boundsMeeting, contains, idsInWindow, openingBounds, viewRect, windowAround, type Rect } from './view-window.ts';

export interface CanvasDrop {
  /** The drag payload's MIME type this canvas accepts (e.g. `application/x-acts-package`). */
  type: string;
  /** Called with the node under the pointer (or `null` over the empty pane) and the payload. */
  onDrop: (nodeId: string | null, payload: string) => void;
}

export interface FlowCanvasProps {
  graph: DesignerGraph;
  layout: GraphLayout;
  /** Task state by node id (`none`, `running`, `completed`, …): colour + icon + label on the node. */
  states?: Readonly<Record<string, string>>;
  /** Diff marks by node id: added, removed (ghosted), changed, moved (a version comparison). */
  marks?: Readonly<Record<string, DiffMark>>;
  /** Problems by node id (e.g. `problemsByNode(graph, problems)`). */
  problems?: ReadonlyMap<string, readonly ProblemLike[]>;
  selected?: string | null;
  onSelect?: (nodeId: string | null) => void;
  /** A node's context menu was asked for (right click), at these client coordinates; the browser's own menu is not shown. */
  onNodeMenu?: (nodeId: string, at: Point) => void;
  /** Nodes may be dragged (positions go to `onNodeDragStop`; the caller pins them in the layout). */
  editable?: boolean;
  onNodeDragStop?: (nodeId: string, position: Point) => void;
  drop?: CanvasDrop;
  dimmed?: boolean;
  /** The view fits the graph on first render and whenever this key changes. */
  fitKey?: string | number;
  /** Fit the graph on first render (default); false when a child moves the view itself. */
  fitOnOpen?: boolean;
  /** The layout's direction (default `TB`). */
  direction?: LayoutDirection;
  /** Called when the user pans or zooms (moves made by code do not count). */
  onUserMove?: () => void;
  ariaLabel?: string;
  /** Rendered inside React Flow: panels, or components that move the view with `useReactFlow`. */
  children?: ReactNode;
}

/** Up to this many nodes the canvas draws every node; above, only those in view (React Flow's `onlyRenderVisibleElements`), of a window around it. */
const DRAW_ALL_UP_TO = 120;
export const drawsEveryNode = (count: number) => count <= DRAW_ALL_UP_TO;

const FIT_OPTIONS = { padding: 0.15, maxZoom: 1.1 } as const satisfies FitViewOptions;
const MIN_ZOOM = 0.1;
const MAX_ZOOM = 2;

/**
 * Fits the view when `fitKey` changes (not on first render: `fitView` does that; not when only
 * React Flow's helpers change). A big graph's canvas fits what `fitView` fitted there, the nodes
 * in view, from the layout (React Flow holds only a window of them).
 */
function FitOnKey({ fitKey, layout, windowed }: { fitKey?: string | number; layout: GraphLayout; windowed: boolean }) {
  const flow = useReactFlow();
  const store = useStoreApi();
  const fitted = useRef(fitKey);
  useEffect(() => {
    if (fitted.current === fitKey) return;
    fitted.current = fitKey;
    if (!windowed) return void flow.fitView({ padding: FIT_OPTIONS.padding, duration: 200 });
    const { transform, width, height } = store.getState();
    const shown = width && height ? boundsMeeting(layout, viewRect(transform, { width, height })) : null;
    if (shown) void flow.setViewport(getViewportForBounds(shown, width, height, MIN_ZOOM, MAX_ZOOM, FIT_OPTIONS.padding), { duration: 200 });
  }, [fitKey, flow, store, layout, windowed]);
  return null;
}

/**
 * Moves a big graph's window (rendered inside React Flow, where the view is known): sets one
 * around the view when the view is not inside the current one; on opening (`fitOnOpen`), first
 * fits the view to what `fitView` fitted.
 */
function WindowMover({ layout, current, onWindow, fitOnOpen }: { layout: GraphLayout; current: Rect | null; onWindow: (window: Rect) => void; fitOnOpen: boolean }) {
  const flow = useReactFlow();
  const transform = useStore((s) => s.transform);
  const width = useStore((s) => s.width);
  const height = useStore((s) => s.height);
  const opened = useRef(false);
  useEffect(() => {
    if (!width || !height) return;
    let at: readonly [number, number, number] = transform;
    const first = fitOnOpen && !opened.current ? openingBounds(layout, { width, height }, false) : null;
    opened.current = true;
    if (first) {
      const view = getViewportForBounds(first, width, height, MIN_ZOOM, FIT_OPTIONS.maxZoom, FIT_OPTIONS.padding);
      void flow.setViewport(view);
      at = [view.x, view.y, view.zoom];
    }
    const view = viewRect(at, { width, height });
    if (!current || !contains(current, view)) onWindow(windowAround(view));
  }, [flow, layout, current, onWindow, fitOnOpen, transform, width, height]);
  return null;
}

const NOTHING: ReadonlySet<string> = new Set();

const nodeIdAt = (target: EventTarget | null): string | null =>
  (target instanceof Element && target.closest('.react-flow__node')?.getAttribute('data-id')) || null;

export function FlowCanvas(props: FlowCanvasProps) {
  const { graph, layout, states, marks, problems, selected = null, onSelect, onNodeMenu, editable = false, onNodeDragStop, drop, dimmed = false, fitKey, fitOnOpen = true, direction = 'TB', onUserMove, ariaLabel = 'Workflow graph', children } = props;
  const cache = useRef(createElementCache());
  const [dragging, setDragging] = useState<Record<string, Point>>({});
  const [dropTarget, setDropTarget] = useState<string | null>(null);
  const windowed = !drawsEveryNode(graph.nodes.length);
  /** Whether the canvas opened on a big graph: it then fits its opening view itself, and hands over nothing before its first window. */
  const [openedWindowed] = useState(windowed);
  const [shownWindow, setShownWindow] = useState<Rect | null>(null);

  const nodes = useMemo(
    () => buildNodes(cache.current, { graph, layout, states, marks, problems, selected, dragging, draggable: editable, dimmed, direction }),
    [graph, layout, states, marks, problems, selected, dragging, editable, dimmed, direction],
  );
  const edges = useMemo(() => buildEdges(cache.current, graph), [graph]);
  // a graph grown past the limit while open is handed over whole until its first window (a few more than 120 nodes)
  const inView = useMemo(
    () => (!windowed ? null : shownWindow ? idsInWindow(graph, layout, shownWindow, dragging) : openedWindowed ? NOTHING : null),
    [windowed, shownWindow, openedWindowed, graph, layout, dragging],
  );
  const given = useMemo(() => inWindow(cache.current, nodes, edges, inView), [nodes, edges, inView]);

  const onNodesChange = useCallback(
    (changes: NodeChange<FlowNode>[]) => {
      for (const change of changes) {
        if (change.type === 'position' && change.position && change.dragging) {
          const { id, position } = change;
          setDragging((d) => ({ ...d, [id]: position }));
        } else if (change.type === 'select' && change.selected) {
          onSelect?.(change.id);
        }
      }
    },
    [onSelect],
  );
  const onDragStop = useCallback<OnNodeDrag<FlowNode>>(
    (_event, node) => {
      onNodeDragStop?.(node.id, { x: Math.round(node.position.x), y: Math.round(node.position.y) });
      setDragging((d) => {
        const { [node.id]: _done, ...rest } = d;
        return rest;
      });
    },
    [onNodeDragStop],
  );
  const onNodeClick = useCallback<NodeMouseHandler<FlowNode>>((_event, node) => onSelect?.(node.id), [onSelect]);
  const onPaneClick = useCallback(() => onSelect?.(null), [onSelect]);
  const onNodeContextMenu = useCallback<NodeMouseHandler<FlowNode>>(
    (event, node) => {
      event.preventDefault();
      onNodeMenu?.(node.id, { x: event.clientX, y: event.clientY });
    },
    [onNodeMenu],
  );
  // React Flow passes the DOM event of a move the user makes, and null for moves made by code
  const onMove = useCallback<OnMove>((event) => event && onUserMove?.(), [onUserMove]);

  const accepts = (event: DragEvent) => !!drop && event.dataTransfer.types.includes(drop.type);
  const onDragOver = (event: DragEvent) => {
    if (!accepts(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    const over = nodeIdAt(event.target);
    if (over !== dropTarget) setDropTarget(over);
  };
  const onDrop = (event: DragEvent) => {
    setDropTarget(null);
    if (!drop || !accepts(event)) return;
    event.preventDefault();
    drop.onDrop(nodeIdAt(event.target), event.dataTransfer.getData(drop.type));
  };

  return (
    <div
      className={`${styles.canvas} ${dimmed ? styles.dimmed : ''}`}
      data-drop-target={dropTarget ?? undefined}
      onDragOver={drop ? onDragOver : undefined}
      onDragLeave={drop ? () => setDropTarget(null) : undefined}
      onDrop={drop ? onDrop : undefined}
    >
      {dropTarget ? <style>{`[data-id="${CSS.escape(dropTarget)}"] > div { outline: 2px dashed var(--accent); outline-offset: 3px; }`}</style> : null}
      <ReactFlowProvider fitView={fitOnOpen && !openedWindowed} initialFitViewOptions={FIT_OPTIONS} initialMinZoom={MIN_ZOOM} initialMaxZoom={MAX_ZOOM}>
        <ReactFlow<FlowNode>
          nodes={given.nodes}
          edges={given.edges}
          nodeTypes={NODE_TYPES}
          edgeTypes={EDGE_TYPES}
          onNodesChange={onNodesChange}
          onNodeClick={onNodeClick}
          onPaneClick={onPaneClick}
          onNodeContextMenu={onNodeMenu ? onNodeContextMenu : undefined}
          onNodeDragStop={onDragStop}
          nodesDraggable={editable}
          nodesConnectable={false}
          elementsSelectable
          deleteKeyCode={null}
          selectionKeyCode={null}
          multiSelectionKeyCode={null}
          onMove={onUserMove ? onMove : undefined}
          fitView={fitOnOpen && !openedWindowed}
          fitViewOptions={FIT_OPTIONS}
          minZoom={MIN_ZOOM}
          maxZoom={MAX_ZOOM}
          onlyRenderVisibleElements={windowed}
          aria-label={ariaLabel}
        >
          <Background gap={20} size={1} />
          {/* the zoom and fit buttons move the view by code: a user's move all the same */}
          <Controls showInteractive={false} onZoomIn={onUserMove} onZoomOut={onUserMove} onFitView={onUserMove} />
          <FitOnKey fitKey={fitKey} layout={layout} windowed={windowed} />
          {windowed ? <WindowMover layout={layout} current={shownWindow} onWindow={setShownWindow} fitOnOpen={fitOnOpen && openedWindowed} /> : null}
          {children}
        </ReactFlow>
      </ReactFlowProvider>
    </div>
  );
}
