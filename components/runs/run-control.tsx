/**
 * Debugging a run (issue 14): the pause button, and the control panel — why the run is paused
 * (an operator, a breakpoint, a step) with resume and step over; open incidents (an act failed with
 * nothing to catch it) with retry, after optional variables, or let it fail; the run's breakpoints;
 * re-running from a step, and the links between a run and its re-runs. Buttons show exactly when
 * the caller's role allows the call (operate; breakpoints: debug). The live `control` events
 * update the store, for the caller as for everyone else.
 *
 * State: the forms' own (the variables text of a retry, the chosen node or step); what the run's
 * control is comes from the RunStore.
 */
'use client';
import Link from 'next/link';
import { useId, useState } from 'react';
import type { ControlView, IncidentView } from '../../vocab/control.ts';
import { isTerminalName } from '../../vocab/states.ts';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { formatDateTime } from './format.ts';
import type { RunStore } from './run-store.ts';
import { parseVars } from './set-vars-form.tsx';
import styles from './run.module.css';
import { useRunSlice } from './use-run.ts';

/**
 * A control call. Its answer is not put into the store: what the call set off goes on in later
 * jobs (a step over pauses again at the next node), so the answer can be older than the live
 * `control` events, which arrive in order and are the store's one source.
 */
function useControlCall<P extends 'control.pause' | 'control.resume' | 'control.stepOver' | 'control.setBreakpoints' | 'control.retry' | 'control.fail'>(path: P) {
  return useApiMutation(path, { invalidates: ['tasks.get'] });
}

/** The header's pause button (a running run that is not paused). */
export function PauseButton({ pid, store }: { pid: string; store: RunStore }) {
  const paused = useRunSlice(store, (s) => s.process?.control?.paused ?? null);
  const pause = useControlCall('control.pause');
  if (paused) return null;
  return (
    <>
      <Button icon="minus" busy={pause.isPending} onClick={() => pause.mutate({ pid })}>
        Pause run
      </Button>
      {pause.error ? <ErrorNote error={pause.error} title="The run was not paused" /> : null}
    </>
  );
}

function pausedText(control: ControlView): string {
  const paused = control.paused!;
  if (paused.reason === 'breakpoint') return `at the breakpoint on ${paused.nid}: it has not started.`;
  if (paused.reason === 'step') return `after a step, before ${paused.nid} starts.`;
  return 'by an operator: no node starts until the run is resumed (what runs goes on to its end).';
}

function Paused({ pid, control, canOperate, onSelect }: { pid: string; control: ControlView; canOperate: boolean; onSelect: (tid: string) => void }) {
  const resume = useControlCall('control.resume');
  const step = useControlCall('control.stepOver');
  const error = resume.error ?? step.error;
  return (
    <div className={styles.controlNote} role="status" data-testid="run-paused">
      <p>
        <strong>Paused</strong> {pausedText(control)} <span className={styles.muted}>since {formatDateTime(control.paused!.at)}</span>
      </p>
      {control.paused!.tid ? (
        <Button size="sm" variant="ghost" icon="info" onClick={() => onSelect(control.paused!.tid!)}>
          Show the node on the graph
        </Button>
      ) : null}
      {canOperate ? (
        <div className={styles.row2}>
          <Button variant="primary" icon="play" busy={resume.isPending} onClick={() => resume.mutate({ pid })}>
            Resume
          </Button>
          <Button icon="skip" busy={step.isPending} onClick={() => step.mutate({ pid })}>
            Step over
          </Button>
        </div>
      ) : null}
      {error ? <ErrorNote error={error} title="The run did not go on" /> : null}
    </div>
  );
}

function Incident({ pid, incident, canOperate }: { pid: string; incident: IncidentView; canOperate: boolean }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const id = useId();
  const retry = useControlCall('control.retry');
  const fail = useControlCall('control.fail');
  const onRetry = () => {
    if (!text.trim()) return void retry.mutate({ pid, tid: incident.tid });
    const parsed = parseVars(text);
    if ('problem' in parsed) return setProblem(parsed.problem);
    setProblem(null);
    retry.mutate({ pid, tid: incident.tid, vars: parsed.vars });
  };
  const error = retry.error ?? fail.error;
  return (
    <li className={styles.controlNote} data-testid="run-incident">
      <p>
        <strong>Incident</strong> on <span className={styles.mono}>{incident.nid}</span>: {incident.ecode ? `${incident.ecode}: ` : ''}
        {incident.message}
      </p>
      {canOperate ? (
        <>
          <label htmlFor={id}>Set variables first (optional, a JSON object)</label>
          <textarea id={id} rows={2} value={text} placeholder='{"amount": 200}' onChange={(e) => setText(e.target.value)} spellCheck={false} aria-invalid={problem ? true : undefined} />
          {problem ? <p className={styles.fieldError}>{problem}</p> : null}
          <div className={styles.row2}>
            <Button variant="primary" icon="refresh" busy={retry.isPending} onClick={onRetry}>
              Retry the act
            </Button>
            <Button variant="danger" icon="x" busy={fail.isPending} onClick={() => fail.mutate({ pid, tid: incident.tid })}>
              Let it fail
            </Button>
          </div>
        </>
      ) : null}
      {error ? <ErrorNote error={error} title="The incident was not resolved" /> : null}
    </li>
  );
}

/** The model's nodes a breakpoint or a re-run may name (the workflow's own steps for a re-run). */
function useRunNodes(pid: string) {
  const model = useApiQuery('processes.graph', { pid }, { staleTime: Infinity, refetchOnWindowFocus: false });
  const nodes = model.data?.nodes.filter((n) => n.path !== '') ?? [];
  return { all: nodes.map((n) => n.nid), steps: nodes.filter((n) => /^steps\[\d+\]$/.test(n.path)).map((n) => n.nid) };
}

/** The breakpoints every new run of the run's model version gets: set to this run's, or cleared. */
function VersionBreakpoints({ mid, ver, control }: { mid: string; ver: number; control: ControlView }) {
  const current = useApiQuery('control.versionBreakpoints', { mid }, { refetchOnWindowFocus: false });
  const set = useApiMutation('control.setVersionBreakpoints', { invalidates: ['control.versionBreakpoints'] });
  if (!current.data || current.data.ver !== ver) return null;
  const nodes = current.data.nodes;
  return (
    <div className={styles.controlPart} data-testid="version-breakpoints">
      <p className={styles.muted}>
        Every new run of v{ver}: {nodes.length > 0 ? nodes.join(', ') : 'no breakpoints'}.
      </p>
      <div className={styles.row2}>
        <Button size="sm" disabled={control.breakpoints.length === 0} busy={set.isPending} onClick={() => set.mutate({ mid, ver, nodes: control.breakpoints })}>
          Use these for new runs of v{ver}
        </Button>
        {nodes.length > 0 ? (
          <Button size="sm" variant="ghost" busy={set.isPending} onClick={() => set.mutate({ mid, ver, nodes: [] })}>
            Clear for new runs
          </Button>
        ) : null}
      </div>
      {set.error ? <ErrorNote error={set.error} title="The breakpoints of new runs were not set" /> : null}
    </div>
  );
}

function Breakpoints({ pid, store, control, nodes }: { pid: string; store: RunStore; control: ControlView; nodes: string[] }) {
  const [chosen, setChosen] = useState('');
  const id = useId();
  const set = useControlCall('control.setBreakpoints');
  const proc = useRunSlice(store, (s) => s.process);
  const free = nodes.filter((n) => !control.breakpoints.includes(n));
  return (
    <div className={styles.controlPart} data-testid="run-breakpoints">
      <h4>Breakpoints</h4>
      {control.breakpoints.length > 0 ? (
        <ul className={styles.chips}>
          {control.breakpoints.map((nid) => (
            <li key={nid}>
              <span className={styles.mono}>{nid}</span>
              <Button size="sm" variant="ghost" icon="x" aria-label={`Remove the breakpoint on ${nid}`} onClick={() => set.mutate({ pid, nodes: control.breakpoints.filter((b) => b !== nid) })} />
            </li>
          ))}
        </ul>
      ) : (
        <p className={styles.muted}>None: the run stops before a node only where you set one.</p>
      )}
      <div className={styles.row2}>
        <label htmlFor={id} className="visually-hidden">
          Node to stop before
        </label>
        <select id={id} value={chosen} onChange={(e) => setChosen(e.target.value)}>
          <option value="">Stop before node…</option>
          {free.map((nid) => (
            <option key={nid} value={nid}>
              {nid}
            </option>
          ))}
        </select>
        <Button disabled={!chosen} busy={set.isPending} onClick={() => set.mutate({ pid, nodes: [...control.breakpoints, chosen] }, { onSuccess: () => setChosen('') })}>
          Add breakpoint
        </Button>
      </div>
      {set.error ? <ErrorNote error={set.error} title="The breakpoints were not set" /> : null}
      {proc?.model_ver ? <VersionBreakpoints mid={proc.mid} ver={proc.model_ver} control={control} /> : null}
    </div>
  );
}

function Rerun({ pid, steps }: { pid: string; steps: string[] }) {
  const [from, setFrom] = useState('');
  const id = useId();
  const rerun = useApiMutation('control.rerun', { invalidates: ['control.reruns', 'processes.list'] });
  return (
    <div className={styles.controlPart}>
      <h4>Re-run from a step</h4>
      <div className={styles.row2}>
        <label htmlFor={id} className="visually-hidden">
          Step to re-run from
        </label>
        <select id={id} value={from} onChange={(e) => setFrom(e.target.value)}>
          <option value="">Step…</option>
          {steps.map((nid) => (
            <option key={nid} value={nid}>
              {nid}
            </option>
          ))}
        </select>
        <Button disabled={!from} busy={rerun.isPending} onClick={() => rerun.mutate({ pid, from })}>
          Re-run
        </Button>
      </div>
      {rerun.data ? (
        <p data-testid="run-rerun-started">
          Started <Link href={`/runs/${encodeURIComponent(rerun.data.pid)}`}>{rerun.data.pid}</Link> from {rerun.data.from}.
        </p>
      ) : null}
      {rerun.error ? <ErrorNote error={rerun.error} title="The re-run did not start" /> : null}
    </div>
  );
}

function Reruns({ pid, control }: { pid: string; control: ControlView }) {
  const reruns = useApiQuery('control.reruns', { pid }, { refetchOnWindowFocus: false });
  const rows = reruns.data?.rows ?? [];
  if (!control.rerunOf && rows.length === 0) return null;
  return (
    <div className={styles.controlPart} data-testid="run-rerun-links">
      {control.rerunOf ? (
        <p>
          Re-runs <Link href={`/runs/${encodeURIComponent(control.rerunOf.pid)}`}>{control.rerunOf.pid}</Link> from {control.rerunOf.from}.
        </p>
      ) : null}
      {rows.length > 0 ? (
        <>
          <h4>Re-runs of this run</h4>
          <ul>
            {rows.map((r) => (
              <li key={r.pid}>
                <Link href={`/runs/${encodeURIComponent(r.pid)}`}>{r.pid}</Link> from {r.from} · {r.state}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

/** `onSelect`: selects a task on the run page (the graph highlights its node, the details show it). */
export function ControlPanel({ pid, store, canOperate, canDebug, onSelect }: { pid: string; store: RunStore; canOperate: boolean; canDebug: boolean; onSelect: (tid: string) => void }) {
  const control = useRunSlice(store, (s) => s.process?.control);
  const state = useRunSlice(store, (s) => s.process?.state ?? 'none');
  const nodes = useRunNodes(pid);
  if (!control) return null;
  const running = !isTerminalName(state);
  // a viewer of a run nobody controlled sees only the links to its re-runs, if any
  if (!control.paused && control.incidents.length === 0 && !canDebug && !canOperate) return <Reruns pid={pid} control={control} />;
  return (
    <section className={styles.control} aria-label="Debug this run">
      {control.paused ? <Paused pid={pid} control={control} canOperate={canOperate} onSelect={onSelect} /> : null}
      {control.incidents.length > 0 ? (
        <ul className={styles.incidents}>
          {control.incidents.map((incident) => (
            <Incident key={incident.tid} pid={pid} incident={incident} canOperate={canOperate} />
          ))}
        </ul>
      ) : null}
      {running && canDebug ? <Breakpoints pid={pid} store={store} control={control} nodes={nodes.all} /> : null}
      {canOperate && nodes.steps.length > 0 ? <Rerun pid={pid} steps={nodes.steps} /> : null}
      <Reruns pid={pid} control={control} />
    </section>
  );
}
