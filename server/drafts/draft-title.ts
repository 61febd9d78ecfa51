/** The title a draft is listed under: the workflow's `name`, else its `id`, else "Untitled workflow". */
import YAML from 'yaml';

const UNTITLED = 'Untitled workflow';
const MAX_TITLE = 200;

export function draftTitle(source: string): string {
  try {
    const doc = YAML.parse(source) as { name?: unknown; id?: unknown } | null;
    const title = [doc?.name, doc?.id].find((v): v is string => typeof v === 'string' && v.trim() !== '');
    return title ? title.trim().slice(0, MAX_TITLE) : UNTITLED;
  } catch {
    return UNTITLED;
  }
}
