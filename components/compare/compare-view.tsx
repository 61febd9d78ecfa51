/**
 * The comparison of two deployed versions of a model (`/models/<id>/compare?from=1&to=2`): the
 * graph with its nodes marked (overlay or side by side), the changes in a side panel with the
 * selected node's fields old → new, and both YAML texts in a merge view that follows the
 * selection. The diff is vocab/model-diff's, the same as `models.structuralDiff` and `acts diff`.
 *
 * State: the versions compared (`from`, `to`; in the URL, default the one before the latest and
 * the latest), the mode (`overlay` or `side`, remembered in the browser) and the selected node's key.
 */
'use client';
import Link from 'next/link';
import { useParams, useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { diffModels } from '../../vocab/model-diff/index.ts';
import { toGraph } from '../designer/model/index.ts';
import { useApiQuery } from '../data/use-api.ts';
import { useStoredFlag } from '../runs/use-stored-flag.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { ChangePanel } from './change-panel.tsx';
import { CompareCanvases } from './compare-canvases.tsx';
import { CompareToolbar } from './compare-toolbar.tsx';
import styles from './compare.module.css';
import { comparisonGraphs } from './comparison-graphs.ts';
import { YamlMerge } from './yaml-merge.tsx';

function Comparison({ id, from, to, sideBySide }: { id: string; from: number; to: number; sideBySide: boolean }) {
  const before = useApiQuery('models.get', { id, ver: from }, { staleTime: Infinity, refetchOnWindowFocus: false });
  const after = useApiQuery('models.get', { id, ver: to }, { staleTime: Infinity, refetchOnWindowFocus: false });
  const [selected, setSelected] = useState<string | null>(null);
  const a = before.data?.source;
  const b = after.data?.source;
  const compared = useMemo(() => {
    if (a === undefined || b === undefined) return null;
    const diff = diffModels(a, b);
    return { diff, graphs: comparisonGraphs(toGraph(a), toGraph(b), diff) };
  }, [a, b]);
  const focus = useMemo(() => {
    if (!compared || !selected) return null;
    const rangeIn = (graph: typeof compared.graphs.before) => graph.nodes.find((n) => n.id === selected)?.range;
    return { before: rangeIn(compared.graphs.before), after: rangeIn(compared.graphs.after) };
  }, [compared, selected]);
  const error = before.error ?? after.error;
  if (error) return <ErrorNote error={error} title="A version could not be read" onRetry={() => void (before.refetch(), after.refetch())} />;
  if (!compared || a === undefined || b === undefined) return <Spinner label="Loading the versions" />;
  const labels = { before: `v${from}`, after: `v${to}` };
  return (
    <>
      <div className={styles.main}>
        <CompareCanvases graphs={compared.graphs} mode={sideBySide ? 'side' : 'overlay'} labels={labels} selected={selected} onSelect={setSelected} />
        <ChangePanel diff={compared.diff} selected={selected} onSelect={setSelected} />
      </div>
      <YamlMerge before={a} after={b} focus={focus} beforeLabel={`YAML of version ${from}`} afterLabel={`YAML of version ${to}`} />
    </>
  );
}

export function CompareView() {
  const { id: rawId } = useParams<{ id: string }>();
  const id = decodeURIComponent(rawId);
  const search = useSearchParams();
  const router = useRouter();
  const versions = useApiQuery('models.versions', { id });
  const [sideBySide, setSideBySide] = useStoredFlag('compare.side-by-side', false);
  const list = versions.data?.versions ?? [];
  const to = Number(search.get('to')) || list[0]?.ver;
  const from = Number(search.get('from')) || list[1]?.ver || to;
  const choose = useCallback(
    (pair: { from: number; to: number }) => router.replace(`/models/${encodeURIComponent(id)}/compare?from=${pair.from}&to=${pair.to}`),
    [router, id],
  );
  if (versions.error) return <ErrorNote error={versions.error} title={`Model ${id} could not be read`} onRetry={() => void versions.refetch()} />;
  if (!versions.data || from === undefined || to === undefined) return <Spinner label="Loading the versions" />;
  return (
    <div className={styles.compare} data-testid="version-compare">
      <CompareToolbar versions={list.map((v) => v.ver)} from={from} to={to} onChoose={choose} sideBySide={sideBySide} onSideBySide={setSideBySide}>
        <Link href={`/models/${encodeURIComponent(id)}`}>Back to the designer</Link>
      </CompareToolbar>
      <Comparison key={`${from}:${to}`} id={id} from={from} to={to} sideBySide={sideBySide} />
    </div>
  );
}
