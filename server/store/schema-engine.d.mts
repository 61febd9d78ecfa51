export const REPO_ROOT: string
export function migrateDeploy(opts: { url?: string; factory?: object; provider?: 'sqlite' | 'postgresql'; root?: string }): Promise<string[]>
export function openSchemaEngine(opts: { schemaPath?: string; url?: string; factory?: object; log?: (s: string) => void }): Promise<{ engine: any; close(): Promise<void> }>
export function loadMigrationList(dir: string): any
export function adapterFactoryFromUrl(url: string): Promise<any>
export const emptyFilter: { externalTables: string[]; externalEnums: string[] }
