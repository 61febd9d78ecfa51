/** Keys of never-deployed workflows' drafts (`/models/new?draft=<key>`): 16 random letters and digits, of the form the API accepts. */
import { DRAFT_KEY_PATTERN } from '../../vocab/input-limits.ts';

export function validDraftKey(key: string): boolean {
  return DRAFT_KEY_PATTERN.test(key);
}

/** A new random key (crypto.getRandomValues: also on plain http, where randomUUID is missing). */
export function newDraftKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(10));
  return Array.from(bytes, (b) => b.toString(36).padStart(2, '0')).join('').slice(0, 16);
}
