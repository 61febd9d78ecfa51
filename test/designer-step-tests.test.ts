/**
 * The designer's side of step tests: saving a case into `tests:` (appended, or replacing the case
 * of that name, the rest of the text kept) and how cases name graph nodes and mark them.
 */
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { saveTestCase, toGraph } from '../components/designer/model/index.ts';
import { graphNodeOf, nodeRefOf, verdictMarks } from '../components/designer/step-test-marks.ts';
import type { StepTestVerdict } from '../vocab/step-tests.ts';

const SOURCE = `id: shop
# the order's steps
steps:
  - id: compute
    acts:
      - { id: multiply, uses: acts.transform.code, params: 'return {}' }
      - { uses: acts.core.irq, key: confirm }
`;

describe('saving a step test case', () => {
  it('appends to tests: (made when missing) as one flow line, keeping comments, and keeps the selection on the node', () => {
    const first = saveTestCase(SOURCE, { name: 'one', node: 'compute', inputs: { price: 2 }, expect: { outputs: { total: 4 } } }, 'step:compute');
    expect(first.nodeId).toBe('step:compute');
    expect(first.source).toContain('# the order\'s steps');
    expect(first.source.endsWith('tests:\n  - { name: one, node: compute, inputs: { price: 2 }, expect: { outputs: { total: 4 } } }\n')).toBe(true);
    const second = saveTestCase(first.source, { name: 'two', node: 'multiply' }, 'act:multiply');
    const replaced = saveTestCase(second.source, { name: 'one', node: 'compute', inputs: { price: 3 } }, 'step:compute');
    expect((YAML.parse(replaced.source) as { tests: unknown[] }).tests).toEqual([
      { name: 'one', node: 'compute', inputs: { price: 3 } },
      { name: 'two', node: 'multiply' },
    ]);
  });
});

describe('naming and marking nodes', () => {
  const graph = toGraph(SOURCE);
  const byLabel = (label: string) => graph.nodes.find((n) => n.label === label)!;

  it('a step or act is named by its id, an act without one by its key; other nodes cannot be tested', () => {
    expect(nodeRefOf(byLabel('compute'))).toBe('compute');
    expect(nodeRefOf(byLabel('multiply'))).toBe('multiply');
    expect(nodeRefOf(byLabel('confirm'))).toBe('confirm');
    expect(nodeRefOf(graph.nodes.find((n) => n.kind === 'start')!)).toBeNull();
    expect(graphNodeOf(graph, 'confirm')?.kind).toBe('act');
  });

  it('a node with any failing case is marked failed, else passed', () => {
    const verdict = (name: string, node: string, pass: boolean) => ({ name, node, pass }) as StepTestVerdict;
    const marks = verdictMarks(graph, [verdict('a', 'compute', true), verdict('b', 'compute', false), verdict('c', 'multiply', true), verdict('d', 'gone', false)]);
    expect(marks).toEqual({
      [byLabel('compute').id]: { tone: 'fail', label: '1 of 2 tests failed' },
      [byLabel('multiply').id]: { tone: 'pass', label: '1 test passed' },
    });
  });
});
