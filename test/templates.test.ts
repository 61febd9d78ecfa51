import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import {
  evaluateCondition,
  findTemplates,
  hasTemplate,
  isWholeTemplate,
  renderParams,
  renderValueMap,
  type Evaluate,
} from '../server/engine/expr/templates.ts';
import { varsScope } from '../server/engine/sandbox/vars-scope.ts';
import { createSandbox } from '../server/engine/sandbox/quickjs.ts';
import type { Sandbox } from '../server/engine/sandbox/types.ts';

/** A fake evaluator over a table of expressions; unknown sources throw and every call is recorded. */
function table(values: Record<string, unknown>): Evaluate & { calls: string[] } {
  const calls: string[] = [];
  const evaluate = (source: string) => {
    calls.push(source);
    if (!Object.hasOwn(values, source)) throw new ActError('script.error', `${source} is not defined`);
    return values[source];
  };
  return Object.assign(evaluate, { calls });
}

const values = {
  n: 42,
  s: 'text',
  t: true,
  obj: { k: [1, 2] },
  list: ['a', 'b'],
  nil: null,
  undef: undefined,
};

describe('template scanning', () => {
  it('finds templates non-greedily on one line', () => {
    expect(findTemplates('{{ a }} and {{ b }}')).toEqual(['a', 'b']);
    expect(findTemplates('{{ {x: 1} }}')).toEqual(['{x: 1}']);
    expect(findTemplates('{{ a\n}} {{b}}')).toEqual(['b']);
    expect(findTemplates('no template {{ }')).toEqual([]);
  });

  it('tells whole templates from mixed strings', () => {
    expect(isWholeTemplate('{{ a + 1 }}')).toBe('a + 1');
    expect(isWholeTemplate('  {{a}}\n')).toBe('a');
    expect(isWholeTemplate('{{ a }} {{ b }}')).toBe(null);
    expect(isWholeTemplate('x {{ a }}')).toBe(null);
    expect(isWholeTemplate('{{ a\n+ 1 }}')).toBe(null);
  });

  it('detects templates', () => {
    expect(hasTemplate('a {{ b }} c')).toBe(true);
    expect(hasTemplate('a {{ b c')).toBe(false);
    expect(hasTemplate('{{\n}}')).toBe(false);
  });
});

describe('renderValueMap (inputs and outputs)', () => {
  it('replaces whole templates by their raw values and keeps other strings', () => {
    const evaluate = table(values);
    expect(
      renderValueMap(
        { a: '{{ n }}', b: '{{obj}}', c: ' {{ list }} ', d: 'n is {{ n }}', e: 'plain', f: 3, g: null, h: '{{ undef }}' },
        evaluate,
      ),
    ).toEqual({ a: 42, b: { k: [1, 2] }, c: ['a', 'b'], d: 'n is {{ n }}', e: 'plain', f: 3, g: null, h: null });
    expect(evaluate.calls).toEqual(['n', 'obj', 'list', 'undef']);
  });

  it('processes nested objects but not arrays', () => {
    const evaluate = table(values);
    expect(renderValueMap({ outer: { inner: '{{ s }}', deeper: { x: '{{ t }}' } }, arr: ['{{ n }}'] }, evaluate)).toEqual({
      outer: { inner: 'text', deeper: { x: true } },
      arr: ['{{ n }}'],
    });
  });

  it('turns evaluation errors into null', () => {
    expect(renderValueMap({ bad: '{{ nope }}', good: '{{ n }}' }, table(values))).toEqual({ bad: null, good: 42 });
  });
});

describe('renderParams', () => {
  it('gives the raw value when one template spans the string', () => {
    const evaluate = table(values);
    expect(renderParams('{{ n }}', evaluate)).toBe(42);
    expect(renderParams(' {{ obj }} ', evaluate)).toEqual({ k: [1, 2] });
    expect(renderParams('{{ list }}', evaluate)).toEqual(['a', 'b']);
    expect(renderParams('{{ undef }}', evaluate)).toBe(null);
  });

  it('replaces templates inside longer strings by their text', () => {
    const evaluate = table(values);
    expect(renderParams('n={{ n }} s={{ s }} t={{ t }}', evaluate)).toBe('n=42 s=text t=true');
    expect(renderParams('obj={{ obj }} list={{ list }} nil={{ nil }}', evaluate)).toBe(
      'obj={"k":[1,2]} list=["a","b"] nil=null',
    );
  });

  it('evaluates two templates on one line each on its own', () => {
    const evaluate = table(values);
    expect(renderParams('{{ n }}{{ s }}', evaluate)).toBe('42text');
    expect(evaluate.calls).toEqual(['n', 's']);
  });

  it('walks objects and arrays at any depth and keeps other values', () => {
    const evaluate = table(values);
    expect(
      renderParams({ to: '{{ s }}', list: ['{{ n }}', 'x {{ t }}', 7, { deep: '{{ list }}' }], flag: false, none: null }, evaluate),
    ).toEqual({ to: 'text', list: [42, 'x true', 7, { deep: ['a', 'b'] }], flag: false, none: null });
    expect(renderParams(12, evaluate)).toBe(12);
    expect(renderParams('no templates', evaluate)).toBe('no templates');
  });

  it('propagates evaluation errors', () => {
    expect(() => renderParams({ a: ['{{ nope }}'] }, table(values))).toThrow('nope is not defined');
    expect(() => renderParams('x {{ nope }}', table(values))).toThrow('nope is not defined');
  });
});

describe('evaluateCondition', () => {
  it('returns booleans', () => {
    expect(evaluateCondition('t', table(values))).toBe(true);
    expect(evaluateCondition('f', table({ f: false }))).toBe(false);
  });

  it.each([
    ['n', 'number'],
    ['s', 'string'],
    ['obj', 'object'],
    ['list', 'array'],
    ['nil', 'null'],
  ])('refuses %s (a %s)', (source, type) => {
    try {
      evaluateCondition(source, table(values));
      throw new Error('expected a failure');
    } catch (err) {
      expect(ActError.is(err)).toBe(true);
      expect((err as ActError).code).toBe('script.error');
      expect((err as ActError).message).toBe(`if expression "${source}" must return a boolean, got ${type}`);
    }
  });

  it('propagates evaluation errors', () => {
    expect(() => evaluateCondition('nope', table(values))).toThrow('nope is not defined');
  });
});

describe('with the QuickJS sandbox', () => {
  let sandbox: Sandbox;
  const vars: Record<string, unknown> = { amount: 120, who: 'ana', items: ['x', 'y'] };
  const scope = varsScope(vars);
  const evaluate: Evaluate = (source) => sandbox.evaluate(source, scope);

  beforeAll(async () => {
    sandbox = await createSandbox();
  });

  afterAll(() => {
    sandbox.close();
  });

  it('renders params, maps and conditions end to end', () => {
    expect(
      renderParams({ to: '{{ who }}', note: '{{ items.length }} items, total {{ amount * 2 }}', n: '{{ let a = 1; a + amount }}' }, evaluate),
    ).toEqual({ to: 'ana', note: '2 items, total 240', n: 121 });
    expect(renderValueMap({ big: '{{ amount > 100 }}', obj: '{{ {a: 1} }}', bad: '{{ missing }}' }, evaluate)).toEqual({
      big: true,
      obj: { a: 1 },
      bad: null,
    });
    expect(evaluateCondition('amount > 100 && who === "ana"', evaluate)).toBe(true);
    expect(() => evaluateCondition('amount', evaluate)).toThrow('must return a boolean, got number');
    expect(() => renderParams('{{ missing }}', evaluate)).toThrow("'missing' is not defined");
  });
});
