/** The property panel's and the run dialog's reads of a YAML element: all its fields, or one. */
import { describe, expect, it } from 'vitest';
import { elementValues, fieldValue } from '../components/designer/element-values.ts';

const source = `id: w
inputs: { amount: 120, who: [a, b] }
steps:
  - id: s1
    name: First
    acts:
      - { id: a1, uses: acts.transform.set, params: { v: 1 } }
`;

describe('element values', () => {
  it('reads every field of an element as plain data', () => {
    expect(elementValues(source, 'steps[0].acts[0]')).toEqual({ id: 'a1', uses: 'acts.transform.set', params: { v: 1 } });
    expect(elementValues(source, 'steps[3]')).toEqual({});
  });

  it('reads one field alone (plain data, a scalar as it is), undefined when absent or the text is broken', () => {
    expect(fieldValue(source, '', 'inputs')).toEqual({ amount: 120, who: ['a', 'b'] });
    expect(fieldValue(source, 'steps[0]', 'name')).toBe('First');
    expect(fieldValue(source, 'steps[0]', 'next')).toBeUndefined();
    expect(fieldValue(`${source}  - {`, '', 'inputs')).toBeUndefined();
  });
});
