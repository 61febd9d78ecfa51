/** What deploy-time validation may ask of the engine; every check that needs it is optional. */
export interface ValidateContext {
  /** True when `uses` names a built-in or registered package; enables `model.unknown_package`. */
  knownPackage?: (uses: string) => boolean;
  /**
   * Syntax check of a script (`mode: 'script'`: statements whose completion value is the result;
   * `'function'`: a function body where `return` works). Returns the error message or `null`.
   * Enables `model.bad_expression`.
   */
  checkSyntax?: (source: string, mode: 'script' | 'function') => string | null;
  /**
   * What every run of an act would find wrong with its params (its package known): the message
   * the run would fail with, or `null`. Enables `model.invalid_params`.
   */
  checkParams?: (uses: string, params: unknown) => string | null;
  /** Why a known package is off on this server (its configuration leaves it off), or `null`. Enables `model.package_off`. */
  packageOff?: (uses: string) => string | null;
  /** Whether a secret of this name is stored. Enables the warning `model.unknown_secret`. */
  knownSecret?: (name: string) => boolean;
}
