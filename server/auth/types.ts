/**
 * The contract between the server's API (server/api) and authentication (server/auth): who is
 * calling, with which roles, and the operations the API needs. server/auth implements it on the
 * store; server/api only depends on these types. The roles and what each may do: vocab/roles.ts.
 */
import type { Role } from '../../vocab/roles.ts';

export type { Role };

/** The authenticated caller of one request or socket. */
export interface Caller {
  userId: string;
  name: string;
  roles: Role[];
  /** The groups the caller belongs to (teams an interrupt act may be offered to). */
  groups: string[];
  /** How the caller proved who they are (`mail_link`: a signed one-click link of a notification e-mail, server/notify). */
  via: 'session' | 'token' | 'mail_link';
}

/** A user as the API shows it: never a password hash. */
export interface UserInfo {
  id: string;
  name: string;
  roles: Role[];
  groups: string[];
  /** Where inbox notifications go (server/notify); null: the user gets no e-mail. */
  email: string | null;
  disabled: boolean;
  create_time: number;
  update_time: number;
}

/** A group as the API shows it: its name, description and the names of its members. */
export interface GroupInfo {
  name: string;
  description: string;
  members: string[];
  create_time: number;
  update_time: number;
}

export interface TokenInfo {
  id: string;
  user_id: string;
  name: string;
  create_time: number;
  last_used: number | null;
}

export interface Session {
  /** The secret to put in the httpOnly session cookie. */
  token: string;
  caller: Caller;
  /** Epoch ms. */
  expires: number;
}

/** What may have taken access away from a user's open connections (see access-events.ts). */
export type AccessChangeReason = 'token_revoked' | 'session_ended' | 'user_disabled' | 'roles_changed' | 'groups_changed' | 'password_changed';

export interface AccessChange {
  userId: string;
  reason: AccessChangeReason;
}

export interface Auth {
  /** Checks a password; throws ActError `auth.invalid` or `auth.rate_limited` (by address, name and address, or name: login-limits.ts). */
  login(name: string, password: string, ip: string): Promise<Session>;
  logout(sessionToken: string): Promise<void>;
  /** The caller of a session cookie or an API token (`Authorization: Bearer …`); null when unknown, expired or revoked. */
  fromSession(sessionToken: string): Promise<Caller | null>;
  fromToken(apiToken: string): Promise<Caller | null>;
  /** True until the first admin exists (then the setup page is closed). */
  setupNeeded(): Promise<boolean>;
  /** Creates the first admin; throws `auth.setup_done` once one exists. */
  setup(name: string, password: string): Promise<UserInfo>;
  users: {
    list(): Promise<UserInfo[]>;
    get(id: string): Promise<UserInfo>;
    /** The user with this sign-in name (`user.not_found` otherwise). */
    named(name: string): Promise<UserInfo>;
    create(name: string, password: string, roles: Role[]): Promise<UserInfo>;
    setRoles(id: string, roles: Role[]): Promise<UserInfo>;
    setPassword(id: string, password: string): Promise<void>;
    setDisabled(id: string, disabled: boolean): Promise<UserInfo>;
    /** Sets the groups the user belongs to (each must exist: `group.not_found`). */
    setGroups(id: string, groups: string[]): Promise<UserInfo>;
    /** Sets (null: removes) the address inbox notifications go to (`input.invalid` when it is not one). */
    setEmail(id: string, email: string | null): Promise<UserInfo>;
  };
  groups: {
    list(): Promise<GroupInfo[]>;
    create(name: string, description: string): Promise<GroupInfo>;
    describe(name: string, description: string): Promise<GroupInfo>;
    /** Removes the group and takes it off every member. */
    remove(name: string): Promise<void>;
  };
  /**
   * Calls `listener` after every change that may take access away from a user's open sockets
   * (in this process; the socket layer relays it to other instances). Returns the unsubscribe.
   */
  onAccessChange(listener: (change: AccessChange) => void): () => void;
  tokens: {
    /** The secret is returned once, only here; the store keeps a hash. */
    create(userId: string, name: string): Promise<{ info: TokenInfo; token: string }>;
    list(userId: string): Promise<TokenInfo[]>;
    revoke(id: string): Promise<void>;
  };
}
