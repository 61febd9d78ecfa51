/** Setting the scene through the API: users with roles, deployed models, started processes. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Role } from '../../server/auth/types.ts';
import { adminSession, signInApi, type Api, type Session } from './api.ts';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
let serial = 0;

/** A unique name per call (`prefix-<time>-<n>`), so tests never collide on one server. */
export function uniqueName(prefix: string): string {
  serial += 1;
  return `${prefix}-${Date.now().toString(36)}-${serial}`;
}

export interface NewUser {
  name?: string;
  password?: string;
  roles: Role[];
}

/** Creates a user as the admin and signs them in; returns their session (and password). */
export async function createUser(user: NewUser): Promise<Session & { password: string }> {
  const { api } = await adminSession();
  const name = user.name ?? uniqueName(user.roles.join('-'));
  const password = user.password ?? `pw-${name}-secret`;
  await api.users.create.mutate({ name, password, roles: user.roles });
  return { ...(await signInApi(name, password)), password };
}

/** Deploys a model from YAML text or from a file of examples/ (e.g. `'approval-chain.yml'`). */
export async function deployModel(source: string | { example: string }, api?: Api): Promise<{ id: string }> {
  const client = api ?? (await adminSession()).api;
  const text = typeof source === 'string' ? source : await readFile(path.join(REPO_ROOT, 'examples', source.example), 'utf8');
  const deployed = await client.models.deploy.mutate({ source: text });
  return { id: deployed.id };
}

/** Starts a process of model `mid`; returns its pid. */
export async function startProcess(mid: string, inputs: Record<string, unknown> = {}, api?: Api): Promise<{ pid: string }> {
  const client = api ?? (await adminSession()).api;
  const started = await client.processes.start.mutate({ mid, inputs });
  return { pid: started.pid };
}
