/**
 * The model of the secrets tests: one `acts.core.http` act (key `call`) whose params — usually
 * reading `{{ secrets.… }}` — are given as an object, written as JSON (which YAML reads as is).
 */
export function secretCall(id: string, params: Record<string, unknown>): string {
  return `id: ${id}\nsteps:\n  - id: s1\n    acts:\n      - uses: acts.core.http\n        key: call\n        params: ${JSON.stringify(params)}\n`;
}
