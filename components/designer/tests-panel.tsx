/**
 * The designer's Tests panel: the saved step tests of the document (`tests:`), "Run all"
 * (stepTests.runAll on the current text, nothing deployed) and each case's pass or fail with why;
 * a case's name selects its node. The verdicts go up (`onVerdicts`) to mark the nodes on the canvas.
 *
 * State: the mutation's last verdicts, dropped when the text they were run on is no longer shown.
 */
'use client';
import { useMemo } from 'react';
import { useApiMutation } from '../data/use-api.ts';
import { Button } from '../ui/button.tsx';
import { ErrorNote } from '../ui/error-note.tsx';
import { fieldValue } from './element-values.ts';
import type { DesignerGraph } from './model/index.ts';
import { TESTS_FIELD, type StepTestVerdict } from '../../vocab/step-tests.ts';
import designer from './designer.module.css';
import styles from './step-tests.module.css';
import { graphNodeOf } from './step-test-marks.ts';

interface SavedCase {
  name: string;
  node: string;
}

/** The saved cases' names and nodes; a text without a top-level `tests:` is not read again (a big model's read costs ~50 ms). */
function savedCases(text: string): SavedCase[] {
  if (!new RegExp(`^${TESTS_FIELD}:`, 'm').test(text)) return [];
  const list = fieldValue(text, '', TESTS_FIELD);
  if (!Array.isArray(list)) return [];
  return list.filter((c): c is SavedCase => !!c && typeof c === 'object' && typeof (c as SavedCase).name === 'string').map((c) => ({ name: c.name, node: String(c.node ?? '') }));
}

export interface TestsPanelProps {
  /** The text to run (the editor's, as typed). */
  text: string;
  /** The text the list is read from: the graph's, which follows typing after a pause. */
  listedText: string;
  graph: DesignerGraph;
  onPick(nodeId: string): void;
  onVerdicts(verdicts: StepTestVerdict[]): void;
}

export function TestsPanel({ text, listedText, graph, onPick, onVerdicts }: TestsPanelProps) {
  const cases = useMemo(() => savedCases(listedText), [listedText]);
  const runAll = useApiMutation('stepTests.runAll');
  const verdicts = new Map((runAll.data?.verdicts ?? []).map((v) => [v.name, v]));
  const failed = [...verdicts.values()].filter((v) => !v.pass).length;
  return (
    <section className={`${designer.properties} ${styles.stack}`} aria-label="Tests">
      <h2 className={designer.paneTitle}>Tests</h2>
      {cases.length === 0 ? <p className={designer.muted}>No saved test cases. Run a step test on a step or act and save it.</p> : null}
      <ul className={styles.cases}>
        {cases.map((c) => {
          const verdict = verdicts.get(c.name);
          const node = graphNodeOf(graph, c.node);
          return (
            <li key={c.name} className={styles.case} data-testid="test-case">
              <button type="button" className={styles.caseName} onClick={() => node && onPick(node.id)} title={`node ${c.node}`} data-testid="test-case-name">
                {c.name}
              </button>
              {verdict ? (
                <span className={`${styles.mark} ${verdict.pass ? styles.pass : styles.fail}`} title={verdict.failures.join('\n')} data-testid="test-verdict">
                  {verdict.pass ? 'passed' : 'failed'}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
      {runAll.data ? (
        <p role="status" className={designer.hint}>
          {failed ? `${failed} of ${verdicts.size} failed` : `All ${verdicts.size} passed`}
        </p>
      ) : null}
      {[...verdicts.values()]
        .filter((v) => !v.pass)
        .map((v) => (
          <p key={v.name} className={designer.fieldError}>
            {v.name}: {v.failures.join('; ')}
          </p>
        ))}
      {runAll.error ? <ErrorNote error={runAll.error} title="The tests did not run" /> : null}
      <Button size="sm" icon="play" disabled={cases.length === 0} busy={runAll.isPending} onClick={() => runAll.mutate({ source: text }, { onSuccess: (r) => onVerdicts(r.verdicts) })}>
        Run all tests
      </Button>
    </section>
  );
}
