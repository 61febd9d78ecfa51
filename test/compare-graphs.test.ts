/**
 * The graphs of the studio's version comparison (components/compare/comparison-graphs.ts): each
 * side marked with what it can show, and the overlay — the new graph with the removed nodes of
 * the old one put back after the node that preceded them, with the old edges that reach them.
 */
import { describe, expect, it } from 'vitest';
import { comparisonGraphs } from '../components/compare/comparison-graphs.ts';
import { toGraph } from '../components/designer/model/index.ts';
import { diffModels } from '../vocab/model-diff/index.ts';
import { claimsV1, claimsV2 } from './helpers/claims-versions.ts';

const [before, after] = [claimsV1('claims'), claimsV2('claims')];
const graphs = comparisonGraphs(toGraph(before), toGraph(after), diffModels(before, after));

describe('comparisonGraphs', () => {
  it('marks the old side removed / changed / moved and the new side added / changed / moved', () => {
    expect(graphs.marks.before).toEqual({ 'act:triage': 'changed', 'step:review': 'removed', 'act:assess': 'moved', 'act:legacy_check': 'removed' });
    expect(graphs.marks.after).toEqual({ 'act:triage': 'changed', 'step:assessment': 'added', 'act:assess': 'moved', 'act:fraud_check': 'added' });
    expect(graphs.marks.overlay).toEqual({ ...graphs.marks.before, ...graphs.marks.after });
  });

  it('overlays the removed nodes on the new graph where they were, with their old edges', () => {
    const ids = graphs.overlay.nodes.map((n) => n.id);
    expect(ids).toEqual(['workflow', 'step:intake', 'step:intake/acts[0]', 'act:triage', 'step:review', 'step:assessment', 'act:assess', 'act:legacy_check', 'act:fraud_check', 'workflow:end']);
    expect(graphs.overlay.nodes.find((n) => n.id === 'step:review')).toBe(graphs.before.nodes.find((n) => n.id === 'step:review'));
    const edges = graphs.overlay.edges.map((e) => `${e.source} -> ${e.target}`);
    expect(edges).toEqual(expect.arrayContaining(['act:triage -> step:review', 'step:review -> act:assess', 'act:assess -> act:legacy_check', 'act:triage -> step:assessment', 'act:assess -> act:fraud_check']));
    for (const edge of graphs.overlay.edges) expect(ids, edge.id).toEqual(expect.arrayContaining([edge.source, edge.target]));
    expect(new Set(graphs.overlay.edges.map((e) => e.id)).size).toBe(graphs.overlay.edges.length);
  });
});
