/**
 * The simulated client's migrations (issue 16), drawn from a stream of their own so every other
 * draw of a seed stays as it was: now and then, while exploring, it deploys the second version of
 * a model (model-edits.ts; once per model, while a process of it runs) and, once that version is
 * the latest, asks to migrate a running process of an older one with the edit's plan (now and
 * then a careless one: the version alone, so renamed and removed nodes have no target) — each
 * process (by name) once; a refusal is an answer like any other.
 */
import type { Vars } from '../../server/engine/model/types.ts';
import type { ModelRow } from '../../server/store/contract/types.ts';
import type { ProcView } from './invariants.ts';
import { editModel, type ModelEdit } from './model-edits.ts';
import { Rng } from './rng.ts';

/** How often an exploring client turns to migrations when it has any to make. */
const RATE = 0.25;
/** How often a migration leaves out the plan's mapped and removed nodes. */
const CARELESS = 0.2;

export type MigrationMove = { deploy: ModelEdit } | { migrate: ProcView; plan: Vars };

export class Migrator {
  private readonly deployed = new Set<string>();
  private readonly tried = new Set<string>();

  constructor(
    private readonly rng: Rng,
    readonly edits: Map<string, ModelEdit>,
  ) {}

  /** A deploy or a migration, or null; `byName` are the running processes in name order. */
  next(byName: ProcView[], models: ModelRow[]): MigrationMove | null {
    if (this.edits.size === 0 || !this.rng.chance(RATE)) return null;
    const verOf = (edit: ModelEdit) => models.find((m) => m.id === edit.mid && m.data === edit.source)?.ver;
    const candidates = byName.filter((p) => {
      const edit = this.edits.get(p.row.mid);
      const ver = edit && verOf(edit);
      return ver !== undefined && p.row.model_ver !== ver && !this.tried.has(p.name);
    });
    if (candidates.length > 0) {
      const proc = this.rng.pick(candidates);
      this.tried.add(proc.name);
      const edit = this.edits.get(proc.row.mid)!;
      const ver = verOf(edit)!;
      return { migrate: proc, plan: this.rng.chance(CARELESS) ? { ver } : { ver, ...structuredClone(edit.plan) } };
    }
    const mids = [...new Set(byName.map((p) => p.row.mid))].filter((mid) => this.edits.has(mid) && !this.deployed.has(mid));
    if (mids.length === 0) return null;
    const mid = this.rng.pick(mids);
    this.deployed.add(mid);
    return { deploy: this.edits.get(mid)! };
  }
}

/** Seeds that migrate, of every seed (the others draw nothing more than before). */
const MIGRATING_SEEDS = 0.8;

/** The migrations of a seed: second versions of its models from a stream of their own, or none. */
export function migratorFor(seed: number, models: Array<{ source: string }>): Migrator | undefined {
  const rng = new Rng(seed * 69621 + 17);
  if (!rng.chance(MIGRATING_SEEDS)) return undefined;
  const edits = new Map<string, ModelEdit>();
  for (const m of models) {
    const edit = editModel(m.source, rng);
    if (edit) edits.set(edit.mid, edit);
  }
  return new Migrator(rng, edits);
}
