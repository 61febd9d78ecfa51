/**
 * A real stuck process, without a stub, for the vitest and browser suites: two processes of one
 * model wait at an interrupt inside a step; the engine is closed; then — while no engine runs —
 * the interrupted act's task row of the first is deleted with the store API. Its step stays
 * `running` with nothing under it: an engine opened on the store loads it (recovery) and its first
 * tick finds it stuck. The second process is a healthy waiting one.
 */
import { Engine } from '../../server/runtime/engine.ts';
import type { Store } from '../../server/store/contract/types.ts';

export const STUCK_MODEL = `id: stuck-demo
name: Stuck demo
steps:
  - id: review
    name: Review
    acts:
      - { uses: acts.core.irq, key: wait, params: { title: 'Review the stuck demo' } }
`;

export interface StuckScene {
  /** The damaged process (nothing can move it). */
  stuck: string;
  /** A process of the same model waiting at its interrupt, as it should. */
  healthy: string;
}

/** Builds the scene on the store `open` gives (called twice: once for the engine, once to damage it). */
export async function makeStuckScene(open: () => Promise<Store>): Promise<StuckScene> {
  const engine = await Engine.create({ store: await open(), autoTick: false });
  let act: string;
  let scene: StuckScene;
  try {
    await engine.models.deploy(STUCK_MODEL);
    const stuck = (await engine.procs.start('stuck-demo')).pid;
    const healthy = (await engine.procs.start('stuck-demo')).pid;
    await engine.idle();
    const task = (await engine.tasks.list(stuck)).find((t) => t.key === 'wait' && t.state === 'interrupted');
    if (!task) throw new Error(`process ${stuck} did not reach its interrupt`);
    act = task.tid;
    scene = { stuck, healthy };
  } finally {
    await engine.close();
  }
  const store = await open();
  try {
    if (!(await store.tasks.delete(`${scene.stuck}:${act}`))) throw new Error(`the task row ${scene.stuck}:${act} was not there to delete`);
  } finally {
    await store.close();
  }
  return scene;
}
