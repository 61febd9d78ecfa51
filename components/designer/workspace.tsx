/**
 * The designer's split view: palette and property panel | canvas | YAML editor and problems, with
 * the toolbar and dialogs. Composition only; the state lives in the hooks it uses:
 * `useDesignerDoc` (text, history, graph), `useValidation` (problems), `useDesignerCommands`
 * (selection, clipboard, edits), `usePinnedPositions` (dragged positions), `useDraft` (the
 * server's draft of both), `useLeaveGuard` (asking before unsaved changes are left), `usePresence`
 * (who else has the model open), `useHeatmap` (the runs' figures on the nodes), plus which dialog is open (`dialog`: none | deploy | versions |
 * run | discard | migrate, with the versions a migration opens with in `migration`), the node whose context menu is open (`menu`), the deployed version (`lastDeploy`), the version the text started from
 * (`baseVer`) and the text a discarded draft goes back to (`clean`).
 */
'use client';
import { useRouter } from 'next/navigation';
import { useCallback, useMemo, useState } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { useMe } from '../data/auth.ts';
import { FlowCanvas } from '../graph/index.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { HeatmapControls } from '../insights/heatmap-controls.tsx';
import { HeatmapLayer } from '../insights/heatmap-layer.tsx';
import { useHeatmap } from '../insights/use-heatmap.ts';
import { MigrationDialog, type MigrationPair } from '../migrations/migration-dialog.tsx';
import { layout, pinProblems, problemsByNode } from './model/index.ts';
import { DeployDialog } from './deploy-dialog.tsx';
import { DesignerTests } from './designer-tests.tsx';
import type { TestMark } from './step-test-marks.ts';
import { TestBadges } from './test-badges.tsx';
import styles from './designer.module.css';
import { DesignerToolbar } from './designer-toolbar.tsx';
import { toDiagnostics } from './diagnostics.ts';
import { fieldValue } from './element-values.ts';
import { DiscardDraftDialog, LeaveDialog, VersionBesideDraft } from './draft-dialogs.tsx';
import { downloadText, readTextFile } from './file-io.ts';
import { FollowSelection } from './follow-selection.tsx';
import { NodeContextMenu, NodeToolbar } from './node-actions.tsx';
import { Palette, PACKAGE_MIME } from './palette.tsx';
import { usePinnedPositions } from './pinned-positions.ts';
import { ProblemsList } from './problems-list.tsx';
import { PropertyPanel } from './property-panel.tsx';
import { RunDialog } from './run-dialog.tsx';
import type { JsonSchema } from './schema-form.tsx';
import { nodeCommandsFor, useDesignerCommands } from './use-designer-commands.ts';
import { useDesignerDoc } from './use-designer-doc.ts';
import { useDraft, type DraftKey, type DraftState, type RestoredDraft } from './use-draft.ts';
import { useLeaveGuard } from './use-leave-guard.ts';
import { presenceSentence, usePresence } from './use-presence.ts';
import { useShortcuts } from './use-shortcuts.ts';
import { useValidation } from './use-validation.ts';
import { VersionsDialog } from './versions-dialog.tsx';
import { YamlEditor } from './yaml-editor.tsx';

export interface WorkspaceProps {
  /** The deployed version's text (or a new workflow's); the designer shows `restored`'s when there is one. */
  original: string;
  /** The deployed model and version this text came from; null for a new workflow. */
  deployed: { id: string; ver: number } | null;
  /** Where the draft of this text is kept, and the draft the page restored (null: none). */
  draftKey: DraftKey;
  restored: RestoredDraft | null;
  /** The user's draft of the model when an older version opens instead (`?ver=`): editing that version replaces it. */
  draftElsewhere?: RestoredDraft | null;
  onOpenVersion?: (ver: number) => void;
}

type Dialog = 'none' | 'deploy' | 'versions' | 'run' | 'discard' | 'migrate';

/** `toLocaleTimeString()`'s format, made once: a new one per render cost ~4 ms of each edit. */
const SAVED_AT = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: 'numeric', second: 'numeric' });

/** The draft's state in words for the toolbar. */
function draftLabel(draft: DraftState): string {
  const at = draft.savedAt ? SAVED_AT.format(draft.savedAt) : '';
  switch (draft.status) {
    case 'clean':
      return '';
    case 'unsaved':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving draft…';
    case 'saved':
      return `Draft saved ${at}`;
    case 'failed':
      return `Draft not saved: ${draft.error?.message ?? 'unknown error'}`;
  }
}

export function Workspace({ original, deployed, draftKey, restored, draftElsewhere = null, onOpenVersion }: WorkspaceProps) {
  const me = useMe();
  const router = useRouter();
  /** An old version opened beside the user's draft stays read-only until they choose to edit it (replacing the draft). */
  const [editsVersion, setEditsVersion] = useState(!draftElsewhere);
  const designer = me.can('design') && editsVersion;
  const doc = useDesignerDoc(restored?.source ?? original);
  const packages = useApiQuery('packages.list', undefined, { staleTime: 300_000 });
  const schemas = useMemo(() => new Map((packages.data?.rows ?? []).map((p) => [p.id, p.schema as JsonSchema])), [packages.data]);
  const models = useApiQuery('models.list', { offset: 0, limit: 100 }, { staleTime: 30_000, enabled: designer });
  const modelIds = useMemo(() => (models.data?.rows ?? []).map((m) => m.id), [models.data]);
  const actPackages = useMemo(() => (packages.data?.rows ?? []).filter((p) => p.catalog !== 'event'), [packages.data]);
  const actIds = useMemo(() => actPackages.map((p) => p.id), [actPackages]);
  const triggerPackages = useMemo(() => (packages.data?.rows ?? []).filter((p) => p.catalog === 'event').map((p) => p.id), [packages.data]);
  const commands = useDesignerCommands(doc, schemas);
  const validation = useValidation(doc.graphText, doc.broken, designer);
  const [dialog, setDialog] = useState<Dialog>('none');
  const [migration, setMigration] = useState<Partial<MigrationPair>>({});
  const openMigration = me.can('design') ? (pair: MigrationPair) => (setMigration(pair), setDialog('migrate')) : undefined;
  /** Closes `which` if it is still the open one: a dialog left for another (deploy or versions → migrate) reports its close after the switch. */
  const closeDialog = (which: Dialog) => () => setDialog((shown) => (shown === which ? 'none' : shown));
  /** The node whose context menu is open, and where. */
  const [menu, setMenu] = useState<{ nodeId: string; at: { x: number; y: number } } | null>(null);
  const closeMenu = useCallback(() => setMenu(null), []);
  const [lastDeploy, setLastDeploy] = useState(deployed);
  const [baseVer, setBaseVer] = useState(restored?.base_ver ?? deployed?.ver ?? 0);
  /** What "Discard draft" goes back to: the text the page opened with, or the last one deployed here. */
  const [clean, setClean] = useState(original);
  /** Step-test results shown on the nodes (designer-tests.tsx). */
  const [testMarks, setTestMarks] = useState<Record<string, TestMark>>({});

  const workflowId = doc.graph.nodes[0]?.elementId ?? 'new';
  const { pinned, pin, commit: commitLayout, reset: resetLayout } = usePinnedPositions(workflowId, restored?.layout, !designer);
  const draft = useDraft({ key: draftKey, text: doc.text, flush: doc.flush, layout: pinned, baseVer, enabled: designer, restored });
  const guard = useLeaveGuard(draft.unsaved || doc.pending);
  const others = usePresence(designer && lastDeploy ? lastDeploy.id : null, me.caller?.name ?? null);
  const placed = useMemo(() => layout(doc.graph, { pinned }), [doc.graph, pinned]);
  const heat = useHeatmap(lastDeploy?.id ?? null, lastDeploy?.ver, doc.graph);
  const pinnedProblems = useMemo(() => pinProblems(doc.graph, validation.problems), [doc.graph, validation.problems]);
  const byNode = useMemo(() => problemsByNode(doc.graph, validation.problems), [doc.graph, validation.problems]);
  const diagnostics = useMemo(() => toDiagnostics(doc.graphText, doc.graph, validation.problems), [doc.graphText, doc.graph, validation.problems]);
  const selectedNode = doc.graph.nodes.find((n) => n.id === commands.selected);
  // read when the run dialog is open: a read of the whole document on every edit cost ~50 ms on 5,000 nodes
  const runInputs = useMemo(() => (dialog === 'run' ? ((fieldValue(doc.text, '', 'inputs') as Record<string, unknown> | undefined) ?? {}) : {}), [dialog, doc.text]);
  const stepIds = doc.graph.nodes.filter((n) => n.kind === 'step' && n.elementId).map((n) => n.elementId!);
  const checking = validation.checking || validation.checked !== doc.text || doc.graphText !== doc.text || doc.pending;
  const canEditGraph = designer && doc.broken.length === 0;
  const nodeActionHandlers = { remove: commands.remove, duplicate: commands.duplicate, wrapInStep: commands.wrapInStep };
  const openDeploy = () => designer && validation.problems.length === 0 && !checking && setDialog('deploy');

  useShortcuts({ remove: commands.remove, duplicate: commands.duplicate, copy: commands.copy, paste: commands.paste, undo: doc.undo, redo: doc.redo, deploy: openDeploy });
  const editorKeys = [
    { key: 'Mod-z', run: () => (doc.undo(), true) },
    { key: 'Mod-Shift-z', run: () => (doc.redo(), true) },
    { key: 'Mod-y', run: () => (doc.redo(), true) },
    { key: 'Mod-s', run: () => (openDeploy(), true) },
  ];

  return (
    <div className={styles.designer}>
      <DesignerToolbar
        title={doc.graph.nodes[0]?.label ?? workflowId}
        status={lastDeploy ? `${lastDeploy.id} · deployed v${lastDeploy.ver}` : 'not deployed yet'}
        canUndo={doc.canUndo}
        canRedo={doc.canRedo}
        onUndo={doc.undo}
        onRedo={doc.redo}
        onExport={() => downloadText(`${workflowId}.yml`, doc.flush())}
        onImport={designer ? (file) => void readTextFile(file).then(doc.load) : undefined}
        onVersions={lastDeploy ? () => setDialog('versions') : undefined}
        onRun={lastDeploy && me.can('operate') ? () => setDialog('run') : undefined}
        deploy={designer ? { problems: validation.problems.length, checking, onDeploy: openDeploy } : undefined}
        draft={designer ? { label: draftLabel(draft), failed: draft.status === 'failed', onDiscard: draft.hasDraft || draft.unsaved ? () => setDialog('discard') : undefined } : undefined}
        presence={presenceSentence(others)}
      />
      {draftElsewhere && !editsVersion && deployed && me.can('design') ? (
        <VersionBesideDraft id={deployed.id} ver={deployed.ver} savedAt={draftElsewhere.update_time} onEdit={() => setEditsVersion(true)} />
      ) : null}
      <div className={styles.split}>
        <aside className={styles.left}>
          {designer ? (
            <Palette
              packages={actPackages}
              targetLabel={selectedNode ? selectedNode.label : 'the last step'}
              onAdd={(uses) => commands.addAct(commands.selected, uses)}
              onAddStep={commands.addStep}
              onAddBranch={selectedNode && ['step', 'act', 'branch'].includes(selectedNode.kind) ? commands.addBranch : null}
              disabled={doc.broken.length > 0}
            />
          ) : null}
          <section className={styles.properties} aria-label="Properties">
            <h2 className={styles.paneTitle}>Properties</h2>
            {commands.editError ? <p role="alert" className={styles.fieldError}>{commands.editError}</p> : null}
            {selectedNode && designer && doc.broken.length === 0 ? (
              <PropertyPanel node={selectedNode} text={doc.text} schemas={schemas} stepIds={stepIds} modelIds={modelIds} triggerPackages={triggerPackages} actPackages={actIds} problems={byNode.get(selectedNode.id) ?? []} deployedId={lastDeploy?.id} onEdit={commands.run} />
            ) : (
              <p className={styles.muted}>{doc.broken.length ? 'Fix the YAML to edit properties.' : 'Select a node on the canvas to see its properties.'}</p>
            )}
          </section>
          {designer && doc.broken.length === 0 ? (
            <DesignerTests node={selectedNode} text={doc.text} graphText={doc.graphText} graph={doc.graph} deployedId={lastDeploy?.id} onMarks={setTestMarks} onPick={commands.select} onEdit={commands.run} />
          ) : null}
        </aside>
        <div className={styles.canvasPane}>
          {doc.broken.length ? (
            <p role="alert" className={styles.brokenNote}>
              The YAML has a syntax error (line {doc.broken[0].position?.line}): {doc.broken[0].message.split('\n')[0]} — the graph shows the last version that could be read.
            </p>
          ) : null}
          {canEditGraph && selectedNode ? <NodeToolbar label={selectedNode.label} can={nodeCommandsFor(selectedNode)} on={nodeActionHandlers} /> : null}
          <FlowCanvas
            graph={doc.graph}
            layout={placed}
            problems={byNode}
            selected={commands.selected}
            onSelect={commands.select}
            onNodeMenu={canEditGraph ? (nodeId, at) => (commands.select(nodeId), setMenu({ nodeId, at })) : undefined}
            editable={designer}
            onNodeDragStop={pin}
            drop={designer ? { type: PACKAGE_MIME, onDrop: (nodeId, uses) => commands.addAct(nodeId, uses) } : undefined}
            dimmed={doc.broken.length > 0}
            fitKey={workflowId}
          >
            <FollowSelection layout={placed} selected={commands.selected} />
            <HeatmapLayer heat={heat} layout={placed} />
            <TestBadges layout={placed} marks={testMarks} />
          </FlowCanvas>
          <HeatmapControls heat={heat} />
        </div>
        <div className={styles.right}>
          <div className={styles.editor}>
            <YamlEditor value={doc.text} onChange={doc.type} diagnostics={diagnostics} keys={editorKeys} readOnly={!designer} label="Workflow YAML" />
          </div>
          {validation.error ? <ErrorNote error={validation.error} title="Validation did not run" /> : null}
          {designer ? <ProblemsList problems={pinnedProblems} checking={checking} onPick={commands.select} /> : null}
        </div>
      </div>
      <DeployDialog
        open={dialog === 'deploy'}
        source={doc.text}
        mid={workflowId}
        baseVer={lastDeploy && lastDeploy.id === workflowId ? baseVer : 0}
        onClose={closeDialog('deploy')}
        onMigrate={openMigration}
        onDeployed={(model) => {
          // the dialog closes itself, or stays on its offer to migrate the older versions' processes
          setLastDeploy(model);
          setBaseVer(model.ver);
          setClean(doc.text);
          commitLayout(model.id);
          // the deployed text is the new clean state; its draft is gone before another page could restore it
          void draft.discard(doc.text, pinned).finally(() => {
            if (!deployed || deployed.id !== model.id) router.replace(`/models/${encodeURIComponent(model.id)}`);
          });
        }}
      />
      <DiscardDraftDialog
        open={dialog === 'discard'}
        deployed={lastDeploy}
        onClose={() => setDialog('none')}
        onDiscard={() => {
          setDialog('none');
          // the draft's baseline is the original at once, so loading it saves nothing
          void draft.discard(clean, resetLayout(lastDeploy?.id ?? null));
          doc.load(clean);
        }}
      />
      {menu && selectedNode?.id === menu.nodeId ? (
        <NodeContextMenu label={selectedNode.label} at={menu.at} can={nodeCommandsFor(selectedNode)} on={nodeActionHandlers} onClose={closeMenu} />
      ) : null}
      <LeaveDialog open={guard.asking} onStay={guard.stay} onLeave={guard.leave} />
      {lastDeploy ? (
        <>
          <VersionsDialog id={lastDeploy.id} open={dialog === 'versions'} onClose={closeDialog('versions')} onOpenVersion={(ver) => (setDialog('none'), guard.go(() => onOpenVersion?.(ver)))} onMigrate={openMigration} />
          <RunDialog modelId={lastDeploy.id} inputs={runInputs} open={dialog === 'run'} onClose={() => setDialog('none')} />
          {dialog === 'migrate' ? <MigrationDialog mid={lastDeploy.id} initial={migration} onClose={() => setDialog('none')} /> : null}
        </>
      ) : null}
    </div>
  );
}
