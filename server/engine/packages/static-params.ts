/**
 * What deploy can tell of an act's params before any run (issue 17): the package's schema checked
 * against the params as written, leaving out what a template decides at run time — a problem at
 * a string holding `{{ }}` (or inside one) is not known yet. What remains fails every run, so
 * deploy reports it with the run's own message (`paramsMessage`), or what the package itself
 * finds wrong beyond its schema (`paramsProblem`: an http act's bad URL). Keys a package keeps raw
 * (`RAW_PARAM_KEYS`: block items, code) are never rendered, so their strings count as written.
 */
import { hasTemplate } from '../expr/templates.ts';
import { RAW_PARAM_KEYS } from '../task-data.ts';
import { paramsMessage, type PackageRegistry } from './registry.ts';
import { isFunc } from './types.ts';

/** JSON pointers (ajv's `instancePath`) of the strings in `value` that templates render. */
function templatedPaths(value: unknown, at: string, into: string[]): string[] {
  if (typeof value === 'string') {
    if (hasTemplate(value)) into.push(at);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => templatedPaths(item, `${at}/${i}`, into));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) templatedPaths(item, `${at}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`, into);
  }
  return into;
}

/** The run's `params.invalid` message for what every run of this act would find; null when nothing is known wrong. */
export function staticParamsProblem(registry: PackageRegistry, uses: string, params: unknown): string | null {
  const raw = RAW_PARAM_KEYS[uses];
  let templated: string[] = [];
  if (raw !== 'all') {
    templated = templatedPaths(params, '', []);
    if (raw) templated = templated.filter((path) => !raw.some((key) => path === `/${key}` || path.startsWith(`/${key}/`)));
  }
  const decidedLater = (path: string) => templated.some((t) => path === t || path.startsWith(`${t}/`));
  const problems = registry.paramsErrors(uses, params).filter((e) => !decidedLater(e.instancePath));
  if (problems.length > 0) return paramsMessage(uses, problems);
  const pkg = registry.get(uses);
  const problem = pkg && isFunc(pkg) ? pkg.paramsProblem?.(params, (path) => !decidedLater(path)) : null;
  return problem ? `params of '${uses}' are invalid: ${problem}` : null;
}
