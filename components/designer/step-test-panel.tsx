/**
 * The designer's Test panel for the selected step or act: inputs typed as YAML or pinned from an
 * earlier run's data of that node (stepTests.pins), a run on a throw-away engine (stepTests.run),
 * its result (how it ended, the node's outputs, the variables, the error, the messages), the acts it waits for —
 * each answered here, which runs it again with the answers given so far — and "Save as test
 * case", which writes the case (with what the run produced as its expectation) into `tests:`.
 *
 * State: the inputs text, the answers given (by act key — an act without an id gets a new one in
 * every run, its key stays — in order), the last result (from the
 * mutation), the answer being typed for a waiting act, and the case name. The workspace keys the
 * panel by node, so another node starts afresh.
 */
'use client';
import { useState } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import type { GraphNode } from './model/index.ts';
import { ANSWER_ACTIONS, type AnswerAction, type StepTestAnswer, type StepTestCase, type StepTestResult } from '../../vocab/step-tests.ts';
import designer from './designer.module.css';
import styles from './step-tests.module.css';
import { runMark } from './step-test-marks.ts';
import { flowText, readVars } from './step-test-values.ts';

export interface StepTestPanelProps {
  node: GraphNode;
  /** The name the test gives the node (nodeRefOf). */
  nodeRef: string;
  source: string;
  /** The deployed model whose runs can be pinned (none for a new workflow). */
  deployedId?: string;
  onResult(result: StepTestResult): void;
  onSave(test: StepTestCase): void;
}

type Answers = Record<string, StepTestAnswer[]>;

/** What the saved case expects: what this run produced. */
function expectationOf(result: StepTestResult): StepTestCase['expect'] {
  if (result.end === 'error') return { error: result.error?.ecode ?? '' };
  return Object.keys(result.outputs).length ? { outputs: result.outputs } : { state: result.state };
}

function PinPicker({ mid, nodeRef, onPin }: { mid: string; nodeRef: string; onPin(vars: Record<string, unknown>): void }) {
  const pins = useApiQuery('stepTests.pins', { mid, node: nodeRef, runs: 10 }, { staleTime: 10_000 });
  const list = pins.data?.pins ?? [];
  return (
    <div className={designer.field}>
      <label htmlFor="step-test-pin">Pin data from a run</label>
      <select id="step-test-pin" value="" onChange={(e) => e.target.value !== '' && onPin(list[Number(e.target.value)].vars)} disabled={list.length === 0}>
        <option value="">{pins.isLoading ? 'Loading runs…' : list.length ? `Choose one of ${list.length} recorded` : 'No run reached this node yet'}</option>
        {list.map((pin, i) => (
          <option key={`${pin.pid}/${pin.tid}`} value={i}>
            {pin.pid} · {pin.state} · {new Date(pin.start_time).toLocaleString()}
          </option>
        ))}
      </select>
    </div>
  );
}

function ResultView({ result }: { result: StepTestResult }) {
  const mark = runMark(result);
  return (
    <section className={styles.result} aria-label="Step test result">
      <span className={`${styles.mark} ${styles.endMark} ${styles[mark.tone]}`} data-testid="step-test-end">
        {result.end} · node {result.state} · {result.ms} ms
      </span>
      {result.error ? (
        <p className={designer.fieldError}>
          {result.error.ecode ? <code>{result.error.ecode}</code> : null} {result.error.message}
        </p>
      ) : null}
      <span>Outputs</span>
      <pre className={styles.pre} data-testid="step-test-outputs">{flowText(result.outputs)}</pre>
      <span>Variables at the end</span>
      <pre className={styles.pre}>{flowText(result.vars)}</pre>
      <details>
        <summary className={designer.hint}>{result.messages.length} messages</summary>
        <ol className={styles.messages}>
          {result.messages.map((m, i) => (
            <li key={i}>
              {m.type} <code>{m.key}</code> {m.state}
              {Object.keys(m.outputs).length ? <> → {flowText(m.outputs)}</> : null}
            </li>
          ))}
        </ol>
      </details>
    </section>
  );
}

function AnswerForm({ act, onAnswer }: { act: StepTestResult['waiting'][number]; onAnswer(answer: StepTestAnswer): void }) {
  const [action, setAction] = useState<AnswerAction>('complete');
  const [options, setOptions] = useState('{}');
  const [problem, setProblem] = useState<string | null>(null);
  const title = act.params && typeof act.params === 'object' ? (act.params as { title?: unknown }).title : undefined;
  return (
    <form
      className={`${designer.properties} ${styles.stack}`}
      aria-label={`Answer ${act.node}`}
      onSubmit={(e) => {
        e.preventDefault();
        try {
          onAnswer({ action, options: readVars(options, 'The options') });
        } catch (err) {
          setProblem((err as Error).message);
        }
      }}
    >
      <strong>
        {act.node} waits{typeof title === 'string' ? `: ${title}` : ''}
      </strong>
      <div className={designer.field}>
        <label htmlFor={`answer-action-${act.tid}`}>Action</label>
        <select id={`answer-action-${act.tid}`} value={action} onChange={(e) => setAction(e.target.value as AnswerAction)}>
          {ANSWER_ACTIONS.map((a) => (
            <option key={a}>{a}</option>
          ))}
        </select>
      </div>
      <div className={designer.field}>
        <label htmlFor={`answer-options-${act.tid}`}>Options (YAML)</label>
        <input id={`answer-options-${act.tid}`} className={designer.code} value={options} onChange={(e) => setOptions(e.target.value)} />
      </div>
      {problem ? <p className={designer.fieldError}>{problem}</p> : null}
      <Button type="submit" size="sm" icon="send">
        Answer and run again
      </Button>
    </form>
  );
}

export function StepTestPanel({ node, nodeRef, source, deployedId, onResult, onSave }: StepTestPanelProps) {
  const run = useApiMutation('stepTests.run');
  const [inputs, setInputs] = useState('{}');
  const [answers, setAnswers] = useState<Answers>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState('');
  const result = run.data;

  const start = (given: Answers) => {
    let vars: Record<string, unknown>;
    try {
      vars = readVars(inputs, 'The inputs');
    } catch (err) {
      setProblem((err as Error).message);
      return;
    }
    setProblem(null);
    run.mutate({ source, node: nodeRef, inputs: vars, answers: given }, { onSuccess: onResult });
  };
  const answer = (act: string, given: StepTestAnswer) => {
    const next = { ...answers, [act]: [...(answers[act] ?? []), given] };
    setAnswers(next);
    start(next);
  };
  const save = () => {
    if (!result) return;
    const test: StepTestCase = { name: name.trim(), node: nodeRef, inputs: readVars(inputs, 'The inputs') };
    if (Object.keys(answers).length) test.answers = answers;
    test.expect = expectationOf(result);
    onSave(test);
  };

  return (
    <section className={`${designer.properties} ${styles.stack}`} aria-label="Step test">
      <h2 className={designer.paneTitle}>Test {node.kind === 'step' ? 'this step' : 'this act'}</h2>
      <p className={designer.hint}>
        Runs <code>{nodeRef}</code> alone on a throw-away engine; nothing is deployed. http acts really call.
      </p>
      {deployedId ? <PinPicker mid={deployedId} nodeRef={nodeRef} onPin={(vars) => setInputs(flowText(vars))} /> : null}
      <div className={designer.field}>
        <label htmlFor="step-test-inputs">Inputs (YAML)</label>
        <textarea id="step-test-inputs" className={designer.code} rows={3} value={inputs} onChange={(e) => setInputs(e.target.value)} />
      </div>
      {Object.keys(answers).length ? (
        <div className={styles.row}>
          <span className={designer.hint}>Answers: {flowText(answers)}</span>
          <Button size="sm" variant="ghost" onClick={() => setAnswers({})}>
            Clear
          </Button>
        </div>
      ) : null}
      {problem ? <p className={designer.fieldError}>{problem}</p> : null}
      <Button variant="primary" size="sm" icon="play" busy={run.isPending} onClick={() => start(answers)}>
        Run step test
      </Button>
      {run.error ? <ErrorNote error={run.error} title="The step test did not run" /> : null}
      {result ? <ResultView result={result} /> : null}
      {result?.end === 'waiting' ? result.waiting.map((act) => <AnswerForm key={act.tid} act={act} onAnswer={(a) => answer(act.key, a)} />) : null}
      {result && (result.end === 'completed' || result.end === 'error') ? (
        <div className={styles.row}>
          <div className={designer.field}>
            <label htmlFor="step-test-name">Test case name</label>
            <input id="step-test-name" value={name} onChange={(e) => setName(e.target.value)} placeholder="e.g. approves a small amount" />
          </div>
          <Button size="sm" icon="check" disabled={name.trim() === ''} onClick={save}>
            Save as test case
          </Button>
        </div>
      ) : null}
    </section>
  );
}
