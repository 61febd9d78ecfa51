/**
 * The package registry (spec 1.9.1, 4.4): built-ins plus registered outside irq/msg packages.
 * Params are validated against each package's JSON Schema with ajv; compiled validators are cached.
 * State: the packages, the validators, and a version bumped by every change (`version`).
 */
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { ActError } from '../errors.ts';
import { BUILT_IN_PACKAGES, TRIGGER_PACKAGES } from './builtins.ts';
import type { PackageDef, PackageMeta } from './types.ts';

export class PackageRegistry {
  private readonly packages = new Map<string, PackageDef>();
  private readonly builtIn = new Set<string>();
  private readonly validators = new Map<string, ValidateFunction>();
  /** Built-ins this server's configuration leaves off, with the sentence that says how to turn them on. */
  private readonly off = new Map<string, string>();
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private changes = 0;

  constructor() {
    for (const pkg of BUILT_IN_PACKAGES) {
      this.packages.set(pkg.name, pkg);
      this.builtIn.add(pkg.name);
    }
  }

  /**
   * Registers an outside package; only `irq`, `msg` and `worker` (external: run by remote workers)
   * packages can be run by outside code.
   */
  register(meta: Partial<PackageMeta> & { name: string; run_as: PackageMeta['run_as'] }): PackageMeta {
    if (!meta.name) throw new ActError('package.invalid', 'a package needs a name');
    if (meta.run_as !== 'irq' && meta.run_as !== 'msg' && meta.run_as !== 'worker') {
      throw new ActError('package.invalid', `package '${meta.name}': run_as must be 'irq', 'msg' or 'worker' (func packages are built in)`);
    }
    if (this.builtIn.has(meta.name)) throw new ActError('package.invalid', `package '${meta.name}' is built in and cannot be replaced`);
    const schema = meta.schema ?? {};
    try {
      this.ajv.compile(schema);
    } catch (err) {
      throw new ActError('package.invalid', `package '${meta.name}': invalid params schema: ${(err as Error).message}`);
    }
    const pkg: PackageMeta = {
      name: meta.name,
      desc: meta.desc ?? '',
      icon: meta.icon ?? '',
      doc: meta.doc ?? '',
      version: meta.version ?? '1.0.0',
      schema,
      run_as: meta.run_as,
      resources: meta.resources ?? [],
      catalog: meta.catalog ?? 'app',
    };
    this.packages.set(pkg.name, pkg);
    this.validators.delete(pkg.name);
    this.changes++;
    return pkg;
  }

  /** Bumped by every register and unregister: what was checked against the registry before is stale. */
  get version(): number {
    return this.changes;
  }

  unregister(name: string): boolean {
    if (this.builtIn.has(name)) throw new ActError('package.invalid', `package '${name}' is built in and cannot be removed`);
    this.validators.delete(name);
    this.changes++;
    return this.packages.delete(name);
  }

  /**
   * Marks a built-in as off on this server (its configuration does not enable it): deploy reports
   * an act using it (`model.package_off`); its runs are refused by the package's own runner.
   */
  turnOff(name: string, sentence: string): void {
    this.off.set(name, sentence);
  }

  /** Why the package is off on this server; null when it runs. */
  offReason(name: string): string | null {
    return this.off.get(name) ?? null;
  }

  get(name: string): PackageDef | undefined {
    return this.packages.get(name);
  }

  /** Whether acts of the package wait for a remote worker (run_as `worker`). */
  isExternal(name: string): boolean {
    return this.packages.get(name)?.run_as === 'worker';
  }

  isBuiltIn(name: string): boolean {
    return this.builtIn.has(name);
  }

  /** A package an act may use (trigger packages are not acts). */
  isActPackage(name: string): boolean {
    return this.packages.has(name) && !TRIGGER_PACKAGES.has(name);
  }

  list(): PackageDef[] {
    return [...this.packages.values()];
  }

  /** Validates evaluated params; throws `params.invalid` listing every problem. */
  validateParams(name: string, params: unknown): void {
    const problems = this.paramsErrors(name, params);
    if (problems.length > 0) throw new ActError('params.invalid', paramsMessage(name, problems));
  }

  /** What the package's schema finds wrong with `params` (JSON pointers in `instancePath`); none when they fit. */
  paramsErrors(name: string, params: unknown): ErrorObject[] {
    const pkg = this.packages.get(name);
    if (!pkg) throw new ActError('package.unknown', `unknown package '${name}'`);
    let validate = this.validators.get(name);
    if (!validate) {
      validate = this.ajv.compile(pkg.schema);
      this.validators.set(name, validate);
    }
    return validate(params ?? null) ? [] : [...(validate.errors ?? [])];
  }
}

/** One problem in words: an enum names the values it takes. */
function problemText(e: ErrorObject): string {
  const at = e.instancePath || '/';
  if (e.keyword === 'enum') return `${at} must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${at} ${e.message}`;
}

/**
 * The message of `params.invalid` (the run's, and deploy's for the same problems). The `if` of an
 * `if`/`then` says nothing the `then`'s own problem does not (e.g. SET needs a value).
 */
export function paramsMessage(name: string, problems: readonly ErrorObject[]): string {
  const told = problems.filter((e) => e.keyword !== 'if');
  return `params of '${name}' are invalid: ${(told.length > 0 ? told : problems).map(problemText).join('; ')}`;
}
