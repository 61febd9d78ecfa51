/** Who a task's e-mail goes to (server/notify/recipients.ts): offered by name, group or role, with an address, enabled, allowed to answer; named first; bounded; none for a task open to every operator. */
import { describe, expect, it } from 'vitest';
import type { UserInfo } from '../server/auth/types.ts';
import { recipientsOf } from '../server/notify/recipients.ts';
import { assignmentOf } from '../vocab/inbox-principals.ts';

const user = (name: string, fields: Partial<UserInfo> = {}): UserInfo => ({ id: name, name, roles: ['operator'], groups: [], email: `${name}@example.com`, disabled: false, create_time: 0, update_time: 0, ...fields });
const USERS = [
  user('zed', { groups: ['finance'] }),
  user('amy', { groups: ['finance'] }),
  user('bob', { groups: ['finance'], email: null }),
  user('cat', { groups: ['finance'], disabled: true }),
  user('dan', { groups: ['finance'], roles: ['viewer'] }),
  user('eve'),
  user('fay', { roles: ['admin'] }),
];
const names = (params: unknown, max = 50) => recipientsOf(assignmentOf(params), USERS, max).map((r) => r.name);

describe('recipientsOf', () => {
  it('mails the named users first, then the members of the groups and the holders of the roles who may answer and have an address', () => {
    expect(names({ candidate_groups: ['finance'], candidate_users: ['eve'] })).toEqual(['eve', 'amy', 'zed']);
    expect(names({ roles: ['admin'] })).toEqual(['fay']);
    expect(recipientsOf(assignmentOf({ assignee: 'eve' }), USERS, 50)).toEqual([{ name: 'eve', email: 'eve@example.com' }]);
  });

  it('is bounded, and mails no one for a task open to every operator', () => {
    expect(names({ candidate_groups: ['finance'], candidate_users: ['eve'] }, 2)).toEqual(['eve', 'amy']);
    expect(names({ title: 'anyone' })).toEqual([]);
  });
});
