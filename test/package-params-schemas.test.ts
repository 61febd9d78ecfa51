/** The built-in packages' params schemas (params-schemas.ts): they take what the engine and the inbox read, refuse what no run could use, and carry the titles the designer's form shows. */
import { describe, expect, it } from 'vitest';
import { PackageRegistry } from '../server/engine/packages/registry.ts';
import { staticParamsProblem } from '../server/engine/packages/static-params.ts';

const registry = new PackageRegistry();
const errors = (uses: string, params: unknown) => registry.paramsErrors(uses, params).map((e) => `${e.instancePath} ${e.message}`);
const fields = (uses: string) => Object.keys((registry.get(uses)!.schema as { properties?: object }).properties ?? {});

describe('acts.core.irq', () => {
  it('names the title, assignee, candidates, assignees, roles, due, follow-up, priority, context, answer form, outcomes and quorum as form fields', () => {
    expect(fields('acts.core.irq')).toEqual(['title', 'description', 'assignee', 'candidate_users', 'candidate_groups', 'assignees', 'roles', 'due', 'follow_up', 'priority', 'context', 'schema', 'outcomes', 'quorum']);
  });

  it('takes a quorum of n or all approvals, refuses one that no vote could reach; deploy leaves a templated one to the run', () => {
    expect(errors('acts.core.irq', { quorum: { need: 2, exclude_requester: true, requester: 'ann', reject_after: 2, reject_ecode: 'no' } })).toEqual([]);
    expect(errors('acts.core.irq', { quorum: { need: 'all' } })).toEqual([]);
    expect(errors('acts.core.irq', { quorum: { need: 0 } })).toEqual(['/quorum/need must be >= 1']);
    expect(errors('acts.core.irq', { quorum: { need: 'most' } })).toEqual(['/quorum/need must match pattern "^all$"']);
    expect(errors('acts.core.irq', { quorum: {} })).toEqual(["/quorum must have required property 'need'"]);
    expect(errors('acts.core.irq', { quorum: { need: 1, needs: 2 } })).toEqual(['/quorum must NOT have additional properties']);
    expect(staticParamsProblem(registry, 'acts.core.irq', { quorum: { need: '{{ approvers }}' } })).toBeNull();
  });

  it('takes one name or a list of assignees and roles, any scalar title, free extra keys and no params at all', () => {
    expect(errors('acts.core.irq', { title: 'Approve?', assignees: 'alice', roles: ['manager', 'director'], schema: { required: ['approved_by'] }, v: { any: 1 } })).toEqual([]);
    expect(errors('acts.core.irq', { title: 120, description: true, assignees: ['alice'] })).toEqual([]);
    // a template that rendered to nothing, and required entries that are not names (the engine passes over them)
    expect(errors('acts.core.irq', { assignees: null, roles: null, schema: { required: ['approved_by', 42] } })).toEqual([]);
    expect(errors('acts.core.irq', null)).toEqual([]);
    expect(errors('acts.core.irq', { outcomes: { approve: {}, reject: { ecode: 'rejected' } } })).toEqual([]);
  });

  it('refuses assignees that are not names and an answer form that is not a map', () => {
    expect(errors('acts.core.irq', { assignees: [1] })).toEqual(['/assignees/0 must be string']);
    expect(errors('acts.core.irq', { roles: { a: 1 } })).toContain('/roles must be array,string,null');
    expect(errors('acts.core.irq', { schema: { required: 'approved_by' } })).toEqual(['/schema/required must be array']);
  });

  it('deploy leaves a templated assignee to the run', () => {
    expect(staticParamsProblem(registry, 'acts.core.irq', { assignees: '{{ manager }}' })).toBeNull();
    expect(staticParamsProblem(registry, 'acts.core.irq', { assignees: 7 })).toMatch(/params of 'acts.core.irq' are invalid: \/assignees must be array,string,null/);
  });
});

describe('the other built-ins', () => {
  it('give their params as form fields', () => {
    expect(fields('acts.core.msg')).toEqual(['to', 'title', 'text']);
    expect(fields('acts.core.subflow')).toEqual(['to', 'options']);
    expect(fields('acts.core.action')).toEqual(['action', 'options']);
    expect(fields('acts.core.parallel')).toEqual(['in', 'acts']);
    expect(fields('acts.core.sequence')).toEqual(['in', 'acts']);
  });

  it("keep a message's params free and a subflow's target required", () => {
    expect(errors('acts.core.msg', { to: '{{ requester }}', text: 'Your expense was approved', extra: 1 })).toEqual([]);
    expect(errors('acts.core.msg', 'just a text')).toEqual([]);
    expect(errors('acts.core.subflow', { options: {} })).toEqual([" must have required property 'to'"]);
  });

  it("leave a parallel's `in` to the package, which says in a sentence that it must be a list", () => {
    expect(errors('acts.core.parallel', { in: 'not a list', acts: [] })).toEqual([]);
  });
});

describe('acts.app.shell and acts.app.state', () => {
  it('give their params as form fields', () => {
    expect(fields('acts.app.shell')).toEqual(['shell', 'script', 'content-type', 'env', 'timeout', 'max_bytes']);
    expect(fields('acts.app.state')).toEqual(['op', 'key', 'value']);
  });

  it('shell: a script is required; the shell is one of the four; env names are variable names with scalar values', () => {
    expect(errors('acts.app.shell', { script: 'echo hi', shell: 'bash', 'content-type': 'json', env: { A_1: 'x', N: 3, B: null }, timeout: 5, max_bytes: 100 })).toEqual([]);
    expect(errors('acts.app.shell', {})).toEqual([" must have required property 'script'"]);
    expect(errors('acts.app.shell', { script: 'x', shell: 'zsh' })).toEqual(['/shell must be equal to one of the allowed values']);
    expect(errors('acts.app.shell', { script: 'x', env: { 'A-B': 'x' } })).toContain('/env property name must be valid');
    expect(errors('acts.app.shell', { script: 'x', env: { A: { deep: 1 } } })).toEqual(['/env/A must be string,number,boolean,null']);
    expect(errors('acts.app.shell', { script: 'x', timeout: 0 })).toEqual(['/timeout must be > 0']);
  });

  it('state: GET needs a key, SET a key and a value (any JSON, null too); the op is GET or SET', () => {
    expect(errors('acts.app.state', { op: 'GET', key: 'k' })).toEqual([]);
    expect(errors('acts.app.state', { op: 'SET', key: 'k', value: null })).toEqual([]);
    expect(errors('acts.app.state', { op: 'SET', key: 'k', value: { a: [1] } })).toEqual([]);
    expect(errors('acts.app.state', { op: 'SET', key: 'k' })).toContain(" must have required property 'value'");
    expect(errors('acts.app.state', { op: 'DEL', key: 'k' })).toEqual(['/op must be equal to one of the allowed values']);
    expect(errors('acts.app.state', { op: 'GET' })).toEqual([" must have required property 'key'"]);
  });

  it('deploy leaves a templated key to the run', () => {
    expect(staticParamsProblem(registry, 'acts.app.state', { op: 'GET', key: '{{ name }}' })).toBeNull();
  });
});
