/**
 * The run's model drawn read-only with FlowCanvas, each node coloured by its live task state and
 * carrying its error (red corner badge with `ecode: message`). The graph of the snapshot the
 * process runs is drawn on the server (`processes.graph`: no YAML parse in the browser), and the
 * node map comes from its path → node id table (node-map.ts). Only `nodeStates`/`nodeErrors` change while the run goes on, and FlowCanvas keeps
 * every unchanged node object, so one state change renders one node.
 *
 * Long runs stay readable: the view opens on the active nodes and follows them (follow-active.tsx),
 * finished stretches fold into one node (stretches.ts), and the flow may run left to right.
 *
 * An act of an external package that waits is drawn as waiting for a worker, not a person.
 * Where the run's work waits in the runtime (a full lane, the overflow outbox, unacked
 * deliveries) shows as badges on its nodes (insights/backpressure-badges.tsx); so do the votes on an
 * act decided by several people (vote-badges.tsx).
 *
 * State: `folding` — null until the run's states are known, then the folded stretches: automatic
 * (`defaultStretches`, followed as more steps finish while the view follows the running process;
 * never unfolding everything at once, as the last active node ends) until the user chooses — a
 * click on a stretch unfolds it, "Collapse finished" folds every finished stretch —, then theirs;
 * `follow` — on by default, remembered in the browser when the user switches it, off for this page
 * when the user pans; `leftToRight` — remembered in the browser.
 */
'use client';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { layout } from '../designer/model/index.ts';
import { useApiQuery } from '../data/use-api.ts';
import { FlowCanvas } from '../graph/index.ts';
import { BackpressureBadges } from '../insights/backpressure-badges.tsx';
import { VoteBadges } from './vote-badges.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { isTerminalName } from '../../vocab/states.ts';
import type { DesignerGraph } from '../../vocab/graph.ts';
import { activeNodeIds } from './active-region.ts';
import { useExternalPackages, workerAware } from './external-acts.ts';
import { FollowActive } from './follow-active.tsx';
import { nodeMapOf } from './node-map.ts';
import { RunGraphToolbar } from './run-graph-toolbar.tsx';
import type { RunStore } from './run-store.ts';
import styles from './run.module.css';
import { collapsed, defaultStretches, finishedStretches, sameStretches, type Stretch } from './stretches.ts';
import { useRunSlice } from './use-run.ts';
import { useStoredFlag } from './use-stored-flag.ts';
import { directionOf, LEFT_TO_RIGHT_FLAG } from './run-graph-layout.ts';

export interface RunGraphProps {
  pid: string;
  store: RunStore;
  selected: string | null;
  onSelect: (nodeId: string | null) => void;
}

export function RunGraph({ pid, store, selected, onSelect }: RunGraphProps) {
  const model = useApiQuery('processes.graph', { pid }, { staleTime: Infinity, refetchOnWindowFocus: false });
  const graph = model.data?.graph ?? null;
  useEffect(() => {
    if (model.data) store.setNodeMap(nodeMapOf(model.data.graph, model.data.nodes));
  }, [store, model.data]);
  const states = useRunSlice(store, (s) => s.nodeStates);
  const problems = useRunSlice(store, (s) => s.nodeErrors);
  const running = useRunSlice(store, (s) => (s.process ? !isTerminalName(s.process.state) : null));

  const [storedFollow, storeFollow] = useStoredFlag('run-graph.follow', true);
  const [follow, setFollow] = useState(storedFollow);
  const onFollow = useCallback(
    (on: boolean) => {
      setFollow(on);
      storeFollow(on);
    },
    [storeFollow],
  );
  const onUserMove = useCallback(() => setFollow(false), []);
  const [leftToRight, setLeftToRight] = useStoredFlag(LEFT_TO_RIGHT_FLAG, false);

  const [folding, setFolding] = useState<{ stretches: readonly Stretch[]; auto: boolean } | null>(null);
  const statesKnown = useRunSlice(store, (s) => s.process !== null && s.mapped);
  const automatic = graph && statesKnown && (folding === null || (folding.auto && follow && running === true)) ? defaultStretches(graph, states) : null;
  let stretches = folding?.stretches ?? automatic;
  // adopted in the render that computed it (no extra commit before the graph shows)
  if (automatic && (folding === null || (automatic.length > 0 && !sameStretches(folding.stretches, automatic)))) {
    stretches = automatic;
    setFolding({ stretches: automatic, auto: true });
  }
  const choose = useCallback((chosen: readonly Stretch[]) => setFolding({ stretches: chosen, auto: false }), []);

  const shown = useMemo(() => (graph && stretches ? collapsed(graph, stretches) : null), [graph, stretches]);
  const laidOut = useMemo(() => (shown ? layout(shown, { direction: directionOf(leftToRight) }) : null), [shown, leftToRight]);
  const external = useExternalPackages();
  const shownStates = useMemo(() => withWorkers(withStretches(states, stretches), shown, external), [states, stretches, shown, external]);
  const active = useMemo(() => (shown ? activeNodeIds(shown, states) : []), [shown, states]);
  const foldable = useMemo(() => (graph ? finishedStretches(graph, states) : []), [graph, states]);
  const canFold = foldable.some((f) => !stretches?.some((s) => s.id === f.id && s.steps.length === f.steps.length));
  const onCollapse = useCallback(() => choose(foldable), [choose, foldable]);
  const onNode = useCallback(
    (nodeId: string | null) => {
      const stretch = stretches?.find((s) => s.id === nodeId);
      if (stretch) choose(stretches!.filter((s) => s !== stretch));
      else onSelect(nodeId);
    },
    [stretches, choose, onSelect],
  );

  if (model.error) return <ErrorNote error={model.error} title="The run's model could not be read" onRetry={() => void model.refetch()} />;
  if (!shown || !laidOut) return <Spinner label="Loading the graph" />;
  return (
    <div className={styles.graph} data-testid="run-graph">
      <RunGraphToolbar follow={running ? follow : null} onFollow={onFollow} leftToRight={leftToRight} onLeftToRight={setLeftToRight} onCollapse={canFold ? onCollapse : null} />
      <div className={styles.graphCanvas}>
        <FlowCanvas
          graph={shown}
          layout={laidOut}
          states={shownStates}
          problems={problems}
          selected={selected}
          onSelect={onNode}
          fitOnOpen={false}
          direction={directionOf(leftToRight)}
          onUserMove={onUserMove}
          ariaLabel="Run graph"
        >
          <FollowActive layout={laidOut} active={active} follow={follow && running === true} />
          <BackpressureBadges pid={pid} store={store} layout={laidOut} running={running === true} />
          <VoteBadges pid={pid} store={store} layout={laidOut} running={running === true} version={states} />
        </FlowCanvas>
      </div>
    </div>
  );
}

/** The node states with each waiting act of an external package shown as waiting for a worker. */
function withWorkers(states: Readonly<Record<string, string>>, graph: DesignerGraph | null, external: ReadonlySet<string>): Readonly<Record<string, string>> {
  if (!graph || external.size === 0) return states;
  let next: Record<string, string> | undefined;
  for (const node of graph.nodes) {
    const state = states[node.id];
    const shownAs = state === undefined ? undefined : workerAware(state, node.uses, external);
    if (shownAs !== state) (next ??= { ...states })[node.id] = shownAs!;
  }
  return next ?? states;
}

/** The node states with each stretch shown as completed. */
function withStretches(states: Readonly<Record<string, string>>, stretches: readonly Stretch[] | null): Readonly<Record<string, string>> {
  if (!stretches?.length) return states;
  const next = { ...states };
  for (const stretch of stretches) next[stretch.id] = 'completed';
  return next;
}
