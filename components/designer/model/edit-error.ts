/** The one error the graph edits throw: a stable `code` and a message that starts with it. */

export type EditErrorCode =
  | 'edit.invalid_yaml'
  | 'edit.not_a_workflow'
  | 'edit.unknown_node'
  | 'edit.bad_parent'
  | 'edit.bad_target'
  | 'edit.bad_index'
  | 'edit.cannot_move'
  | 'edit.cannot_remove'
  | 'edit.not_a_list'
  | 'edit.missing_uses'
  | 'edit.missing_on'
  | 'edit.empty_id'
  | 'edit.duplicate_id'
  | 'edit.unknown_field';

export class DesignerEditError extends Error {
  readonly code: EditErrorCode;

  constructor(code: EditErrorCode, detail: string) {
    super(`${code}: ${detail}`);
    this.name = 'DesignerEditError';
    this.code = code;
  }
}

export function editError(code: EditErrorCode, detail: string): DesignerEditError {
  return new DesignerEditError(code, detail);
}
