/**
 * The SQL shape of each collection: which Prisma model holds it and how every row field is stored.
 * Must agree with prisma/models.prisma (a test checks it against the generated client).
 *
 * Kinds: `string` (TEXT), `int` (32-bit INTEGER), `time` (BIGINT epoch ms, a JS number in rows),
 * `bool` (BOOLEAN), `json` (TEXT holding the JSON text of the value; SQL NULL for null).
 */
import type { CollectionName } from './contract/types.ts';
import type { ServerCollectionName } from './server-rows.ts';

/** Every table's collection name: the engine's `Store` collections and the server's (server-rows.ts). */
export type TableName = CollectionName | ServerCollectionName;

export type ColumnKind = 'string' | 'int' | 'time' | 'bool' | 'json';

export interface Column {
  kind: ColumnKind;
  /** Whether the column accepts NULL (a null or missing row value). */
  nullable: boolean;
}

export interface Table {
  /** The collection's name on the opened store (`modelVersions`), used in error messages. */
  name: TableName;
  /** The Prisma client delegate (`modelVersion`). */
  delegate: string;
  /** The SQL table (`model_versions`, the model's @@map). */
  sqlName: string;
  /** Row fields → columns; `id` (string primary key) included. The hidden `seq` column is not. */
  columns: Readonly<Record<string, Column>>;
}

const str: Column = { kind: 'string', nullable: false };
const strOrNull: Column = { kind: 'string', nullable: true };
const int: Column = { kind: 'int', nullable: false };
const time: Column = { kind: 'time', nullable: false };
const timeOrNull: Column = { kind: 'time', nullable: true };
const bool: Column = { kind: 'bool', nullable: false };
const json: Column = { kind: 'json', nullable: true };

export const TABLES: Readonly<Record<TableName, Table>> = {
  models: {
    name: 'models',
    delegate: 'model',
    sqlName: 'models',
    columns: { id: str, name: str, ver: int, size: int, data: str, create_time: time, update_time: time, archived: time, breakpoints: json },
  },
  modelVersions: {
    name: 'modelVersions',
    delegate: 'modelVersion',
    sqlName: 'model_versions',
    columns: { id: str, mid: str, ver: int, data: str, create_time: time, note: str, deployed_by: strOrNull },
  },
  procs: {
    name: 'procs',
    delegate: 'proc',
    sqlName: 'procs',
    columns: {
      id: str,
      state: str,
      mid: str,
      name: str,
      start_time: time,
      end_time: time,
      model: str,
      model_ver: int,
      env: json,
      err: json,
      parent_pid: strOrNull,
      parent_tid: strOrNull,
      timestamp: time,
      owner: strOrNull,
      stuck_since: time,
      start_key: strOrNull,
      start_digest: strOrNull,
      inputs_text: strOrNull,
      outcome: strOrNull,
      control: json,
      rerun_of: strOrNull,
    },
  },
  tasks: {
    name: 'tasks',
    delegate: 'task',
    sqlName: 'tasks',
    columns: {
      id: str,
      pid: str,
      tid: str,
      node_data: json,
      kind: str,
      prev: strOrNull,
      parent: strOrNull,
      name: str,
      state: str,
      data: json,
      err: json,
      start_time: time,
      end_time: time,
      hooks: json,
      timestamp: time,
    },
  },
  messages: {
    name: 'messages',
    delegate: 'message',
    sqlName: 'messages',
    columns: {
      id: str,
      pid: str,
      tid: str,
      nid: str,
      mid: str,
      name: str,
      type: str,
      state: str,
      key: str,
      uses: str,
      tag: str,
      model: json,
      inputs: json,
      outputs: json,
      start_time: time,
      end_time: time,
      create_time: time,
      timestamp: time,
    },
  },
  deliveries: {
    name: 'deliveries',
    delegate: 'delivery',
    sqlName: 'deliveries',
    columns: {
      id: str,
      msg_id: str,
      chan_id: str,
      pid: str,
      tid: str,
      status: str,
      retry_times: int,
      create_time: time,
      update_time: time,
    },
  },
  events: {
    name: 'events',
    delegate: 'event',
    sqlName: 'events',
    columns: {
      id: str,
      mid: str,
      name: str,
      ver: int,
      uses: str,
      kind: str,
      params: json,
      cron: strOrNull,
      timezone: strOrNull,
      next_run: time,
      last_run: time,
      enabled: bool,
      create_time: time,
      update_time: time,
    },
  },
  packages: {
    name: 'packages',
    delegate: 'package',
    sqlName: 'packages',
    columns: {
      id: str,
      desc: str,
      icon: str,
      doc: str,
      version: str,
      schema: json,
      run_as: str,
      resources: json,
      catalog: str,
      built_in: bool,
      create_time: time,
      update_time: time,
    },
  },
  ops: {
    name: 'ops',
    delegate: 'op',
    sqlName: 'ops',
    columns: {
      id: str,
      type: str,
      pid: str,
      tid: str,
      event: strOrNull,
      options: json,
      status: str,
      create_time: time,
      update_time: time,
    },
  },
  instances: {
    name: 'instances',
    delegate: 'instance',
    sqlName: 'instances',
    columns: { id: str, host: str, pid: int, lease_until: time, started: time },
  },
  startClaims: {
    name: 'startClaims',
    delegate: 'startClaim',
    sqlName: 'start_claims',
    columns: { id: str, pid: str, digest: str, instance: str, claimed: time },
  },
  states: {
    name: 'states',
    delegate: 'stateEntry',
    sqlName: 'states',
    columns: { id: str, pid: str, key: str, value: json, update_time: time },
  },
  files: {
    name: 'files',
    delegate: 'answerFile',
    sqlName: 'answer_files',
    columns: { id: str, pid: str, tid: str, field: str, name: str, type: str, size: int, data: str, create_by: str, create_time: time },
  },
  inbox: {
    name: 'inbox',
    delegate: 'inboxEntry',
    sqlName: 'inbox',
    columns: { id: str, pid: str, tid: str, mid: str, principal: str, start_time: time, holder: strOrNull, held_since: timeOrNull, delegator: strOrNull, proposal: json, due_time: time, follow_up: time, priority: int, escalated: json },
  },
  users: {
    name: 'users',
    delegate: 'user',
    sqlName: 'users',
    columns: { id: str, name: str, password_hash: str, roles: json, groups: json, email: strOrNull, disabled: bool, create_time: time, update_time: time },
  },
  sessions: {
    name: 'sessions',
    delegate: 'session',
    sqlName: 'sessions',
    columns: { id: str, user_id: str, expires: time, create_time: time, last_seen: time },
  },
  apiTokens: {
    name: 'apiTokens',
    delegate: 'apiToken',
    sqlName: 'api_tokens',
    columns: { id: str, user_id: str, name: str, token_hash: str, create_time: time, last_used: timeOrNull },
  },
  audit: {
    name: 'audit',
    delegate: 'auditEntry',
    sqlName: 'audit_entries',
    columns: { id: str, time, actor: str, actor_name: str, action: str, target: str, detail: json, result: str },
  },
  drafts: {
    name: 'drafts',
    delegate: 'draft',
    sqlName: 'drafts',
    columns: { id: str, user_id: str, user_name: str, mid: str, title: str, source: str, layout: json, base_ver: int, create_time: time, update_time: time },
  },
  secrets: {
    name: 'secrets',
    delegate: 'secret',
    sqlName: 'secrets',
    columns: { id: str, value: str, iv: str, key_id: str, create_time: time, create_by: str, update_time: time, update_by: str },
  },
  groups: {
    name: 'groups',
    delegate: 'group',
    sqlName: 'groups',
    columns: { id: str, description: str, create_time: time, update_time: time },
  },
  notifications: {
    name: 'notifications',
    delegate: 'notification',
    sqlName: 'notifications',
    columns: {
      id: str,
      kind: str,
      pid: str,
      tid: str,
      user_name: str,
      email: str,
      state: str,
      attempts: int,
      next_time: time,
      lease_until: time,
      error: strOrNull,
      create_time: time,
      update_time: time,
    },
  },
  mailLinkUses: {
    name: 'mailLinkUses',
    delegate: 'mailLinkUse',
    sqlName: 'mail_link_uses',
    columns: { id: str, pid: str, tid: str, user_name: str, action: str, use_time: time, result: str },
  },
};

/** Every collection of an opened store (`openStore`): the engine's and the server's. */
export const COLLECTION_NAMES = Object.keys(TABLES) as TableName[];

/** The server's collections (server-rows.ts), outside the engine's `Store`. */
export const SERVER_COLLECTION_NAMES: readonly ServerCollectionName[] = ['users', 'sessions', 'apiTokens', 'audit', 'drafts', 'secrets', 'groups', 'notifications', 'mailLinkUses'];

/** Whether `name` names one of the server's tables. */
export const isServerCollectionName = (name: string): name is ServerCollectionName => (SERVER_COLLECTION_NAMES as readonly string[]).includes(name);

/** The hidden insertion-order column (see prisma/models.prisma). */
export const SEQ = 'seq';
