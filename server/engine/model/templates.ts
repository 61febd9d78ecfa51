/** Finds `{{ … }}` templates in data (spec 1.8, section 0.11): non-greedy, one line each. */
import { joinPath } from './paths.ts';

const TEMPLATE = /\{\{(.*?)\}\}/g;

/** The expressions of every template in `text`, in order. */
export function templatesIn(text: string): string[] {
  if (!text.includes('{{')) return [];
  return Array.from(text.matchAll(TEMPLATE), (m) => m[1]);
}

/** Calls `visit` for each template expression in the strings of `value` (nested maps and lists). */
export function forEachTemplate(value: unknown, path: string, visit: (expression: string, path: string) => void): void {
  if (typeof value === 'string') {
    for (const expression of templatesIn(value)) visit(expression, path);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => forEachTemplate(item, joinPath(path, i), visit));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) forEachTemplate(item, joinPath(path, key), visit);
  }
}
