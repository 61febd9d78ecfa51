import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActError } from '../server/engine/errors.ts';
import type { Vars } from '../server/engine/model/types.ts';
import { createSandbox, hostOsName } from '../server/engine/sandbox/quickjs.ts';
import { EvaluationDeferred, type Sandbox, type ScriptScope, type StepAccess } from '../server/engine/sandbox/types.ts';

interface FakeStep {
  data: Vars;
  inputs: Vars;
  terminal: boolean;
}

interface FakeWorld {
  /** Task data first, then each ancestor's, root last. */
  chain: Vars[];
  inputs: Vars;
  env: Vars;
  osEnv: Vars;
  steps: Record<string, FakeStep>;
  userVars: Record<string, Vars>;
  logs: Array<[string, string]>;
}

function world(partial: Partial<FakeWorld> = {}): FakeWorld {
  return {
    chain: [{ a: 1, name: 'task' }, { a: 100, parentOnly: 'p' }, { root: true }],
    inputs: { in1: 'x' },
    env: { region: 'eu' },
    osEnv: { HOME: '/home/acts' },
    steps: {
      step1: { data: { x: 42, y: 'why' }, inputs: { seed: 1 }, terminal: false },
      done1: { data: { x: 1 }, inputs: {}, terminal: true },
    },
    userVars: { secrets: { TOKEN: 'default-token', OTHER: 'o' } },
    logs: [],
    ...partial,
  };
}

/** A ScriptScope over plain maps, following the variable rules of spec 2.11. */
function scopeOf(w: FakeWorld): ScriptScope {
  const visible = (name: string) => w.chain.find((vars) => Object.hasOwn(vars, name));
  const stepAccess = (step: FakeStep, id: string): StepAccess => ({
    get: (key) => step.data[key],
    set: (key, value) => {
      if (step.terminal) throw new ActError('action.refused', `step ${id} is already completed`);
      step.data[key] = value;
    },
    data: () => ({ ...step.data }),
    inputs: () => ({ ...step.inputs }),
  });
  return {
    has: (name) => visible(name) !== undefined,
    get: (name) => visible(name)?.[name],
    set: (name, value) => {
      const owner = [...w.chain].reverse().find((vars) => Object.hasOwn(vars, name));
      if (owner) owner[name] = value;
      w.chain[0][name] = value;
    },
    inputs: () => ({ ...w.inputs }),
    data: () => ({ ...w.chain[0] }),
    setProcessVar: (name, value) => {
      w.chain[w.chain.length - 1][name] = value;
    },
    envGet: (name) => (Object.hasOwn(w.env, name) ? w.env[name] : w.osEnv[name]),
    envSet: (name, value) => {
      w.env[name] = value;
    },
    step: (id) => (w.steps[id] ? stepAccess(w.steps[id], id) : undefined),
    userVar: (name) => {
      const defaults = w.userVars[name];
      if (!defaults) return undefined;
      const overlay = visible(name)?.[name];
      return { ...defaults, ...(overlay && typeof overlay === 'object' ? (overlay as Vars) : {}) };
    },
    log: (level, message) => {
      w.logs.push([level, message]);
    },
  };
}

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await createSandbox();
});

afterAll(() => {
  sandbox.close();
});

function run(source: string, w: FakeWorld = world(), mode: 'script' | 'function' = 'script'): unknown {
  return sandbox.evaluate(source, scopeOf(w), mode);
}

function failure(source: string, w: FakeWorld = world(), mode: 'script' | 'function' = 'script'): ActError {
  try {
    run(source, w, mode);
  } catch (err) {
    expect(ActError.is(err)).toBe(true);
    expect((err as ActError).code).toBe('script.error');
    return err as ActError;
  }
  throw new Error(`expected ${source} to fail`);
}

describe('completion values', () => {
  it.each([
    ['let x = 1; x + 1', 2],
    ['"hello"', 'hello'],
    ["[1, 'a', null, true]", [1, 'a', null, true]],
    ['{a:1}', { a: 1 }],
    ['({a:1})', { a: 1 }],
    ['{}', {}],
    ['{ let y = 2; y * 2 }', 4],
    ['1; 2; 3', 3],
    ['a + 1;', 2],
    ['a > 1', false],
    ['undefined', null],
    ['let t = 0; for (const i of [1, 2, 3]) t += i; t', 6],
    ['if (a === 1) { "one" } else { "other" }', 'one'],
    ['1 / 0', null],
    ['new Date(0)', '1970-01-01T00:00:00.000Z'],
  ])('%s', (source, expected) => {
    expect(run(source)).toEqual(expected);
  });

  it('keeps declarations local to one evaluation', () => {
    expect(run('let x = 1; const k = 2; x + k')).toBe(3);
    expect(run('let x = 10; x')).toBe(10);
    expect(run('var leaked = 1; function lf() { return 2 } leaked + lf()')).toBe(3);
    expect(run('typeof leaked + typeof lf')).toBe('undefinedundefined');
  });

  it('lets a script create implicit globals that vanish afterwards', () => {
    expect(run('y = 5; globalThis.z = 6; y + z')).toBe(11);
    expect(run('typeof y + typeof z')).toBe('undefinedundefined');
  });

  it('converts BigInt when safe and refuses it otherwise', () => {
    expect(run('10n')).toBe(10);
    expect(run('({ n: 2n ** 40n })')).toEqual({ n: 2 ** 40 });
    expect(failure('2n ** 80n').message).toMatch(/outside the safe integer range/);
  });
});

describe('globals', () => {
  it('reads task variables with the nearest value winning', () => {
    expect(run('a + 1')).toBe(2);
    expect(run('parentOnly + name')).toBe('ptask');
    expect(run('root')).toBe(true);
  });

  it('falls through to JS globals and reports unknown names', () => {
    expect(run('Math.max(a, 10)')).toBe(10);
    expect(run('JSON.stringify({ a })')).toBe('{"a":1}');
    expect(failure('nope + 1').message).toBe("'nope' is not defined");
    expect(run('typeof nope')).toBe('undefined');
  });

  it('keeps builtins and helpers even when a variable has the same name', () => {
    const w = world({ chain: [{ Math: 'shadow', $get: 1, a: 1 }] });
    expect(run('typeof Math.max + typeof $get', w)).toBe('functionfunction');
    expect(run('$get("Math")', w)).toBe('shadow');
  });

  it('does not persist plain assignments to variables', () => {
    const w = world();
    expect(run('a = 50; a', w)).toBe(50);
    expect(w.chain[0].a).toBe(1);
    expect(run('a', w)).toBe(1);
  });

  it('reports the host OS', () => {
    expect(run('os')).toBe(hostOsName());
    expect(hostOsName('win32')).toBe('windows');
    expect(hostOsName('darwin')).toBe('macos');
    expect(hostOsName('linux')).toBe('linux');
  });
});

describe('helpers', () => {
  it('$get returns the nearest value or null', () => {
    expect(run('$get("a")')).toBe(1);
    expect(run('$get("parentOnly")')).toBe('p');
    expect(run('$get("missing")')).toBe(null);
  });

  it('$set writes through the scope and later reads see the new value', () => {
    const w = world();
    expect(run("$set('a', 5); a + $get('a')", w)).toBe(10);
    expect(w.chain[0].a).toBe(5);
    expect(w.chain[1].a).toBe(5);
    expect(run("$set('fresh', {k: [1]}); fresh.k[0]", w)).toBe(1);
    expect(w.chain[0].fresh).toEqual({ k: [1] });
  });

  it('$set refuses values without a JSON form', () => {
    expect(failure("$set('f', () => 1)").message).toBe("$set('f') was given a function, which has no JSON value");
  });

  it('$inputs and $data return the task maps', () => {
    expect(run('$inputs()')).toEqual({ in1: 'x' });
    expect(run('$data()')).toEqual({ a: 1, name: 'task' });
  });

  it('$set_process_var writes the root data', () => {
    const w = world();
    run("$set_process_var('pv', 7)", w);
    expect(w.chain[2].pv).toBe(7);
    expect(run('pv', w)).toBe(7);
  });

  it('$env reads the process env with OS fallback and writes the process env', () => {
    const w = world();
    expect(run('$env.region + " " + $env.HOME', w)).toBe('eu /home/acts');
    expect(run('$env.missing', w)).toBe(null);
    run('$env.stage = "prod"', w);
    expect(w.env.stage).toBe('prod');
    expect(run('"stage" in $env', w)).toBe(true);
  });

  it('routes console output to the scope', () => {
    const w = world();
    run('console.log("hi", 1, {b: 2}, [3], null); console.warn("careful"); console.error(new TypeError("bad"))', w);
    expect(w.logs).toEqual([
      ['log', 'hi 1 {"b":2} [3] null'],
      ['warn', 'careful'],
      ['error', 'TypeError: bad'],
    ]);
  });

  it('adds set operations to arrays', () => {
    expect(run("['b', 'a', 'a'].union(['c', 'a'])")).toEqual(['a', 'b', 'c']);
    expect(run("['c', 'a', 'b', 'a'].intersection(['a', 'c', 'x'])")).toEqual(['a', 'c']);
    expect(run("['c', 'a', 'b', 'b'].difference(['a'])")).toEqual(['b', 'c']);
    expect(failure("['a'].union('a')").message).toMatch(/expects an array/);
  });
});

describe('steps and user vars', () => {
  it('reads and writes step data through the step proxy', () => {
    const w = world();
    expect(run('step1.x + 1', w)).toBe(43);
    expect(run('step1.data()', w)).toEqual({ x: 42, y: 'why' });
    expect(run('step1.inputs()', w)).toEqual({ seed: 1 });
    expect(run('Object.keys(step1)', w)).toEqual(['x', 'y']);
    expect(run('step1.x = 7; step1.x', w)).toBe(7);
    expect(w.steps.step1.data.x).toBe(7);
  });

  it('refuses writes to a terminal step', () => {
    const w = world();
    expect(failure('done1.x = 2', w).message).toBe('step done1 is already completed');
    expect(w.steps.done1.data.x).toBe(1);
    expect(run('done1.x', w)).toBe(1);
  });

  it('prefers a variable over a step of the same name', () => {
    const w = world({ chain: [{ step1: 'variable' }] });
    expect(run('step1', w)).toBe('variable');
  });

  it('exposes user vars overlaid by the visible variable', () => {
    expect(run('secrets.TOKEN')).toBe('default-token');
    const w = world({ chain: [{ secrets: { TOKEN: 'from-start' } }] });
    expect(run('secrets.TOKEN + "/" + secrets.OTHER', w)).toBe('from-start/o');
  });
});

describe('function mode', () => {
  it('returns the value of return', () => {
    expect(run('return {y: 1}', world(), 'function')).toEqual({ y: 1 });
    expect(run('const d = a * 2;\nreturn d;', world(), 'function')).toBe(2);
    expect(run('let n = 1', world(), 'function')).toBe(null);
  });
});

describe('errors', () => {
  it('maps exceptions to script.error with their message', () => {
    expect(failure('throw new Error("boom")').message).toBe('boom');
    expect(failure('throw "x"').message).toBe('x');
    expect(failure('throw {code: 1}').message).toBe('{"code":1}');
    expect(failure('throw null').message).toBe('null');
    expect(failure('null.x').message).toMatch(/null/);
    expect(failure('let = ;').message).toMatch(/unexpected|expecting/);
  });

  it('refuses results without a JSON form', () => {
    expect(failure('() => 1').message).toBe('expression returned a function, which has no JSON value');
    expect(failure('Symbol("s")').message).toBe('expression returned a symbol, which has no JSON value');
    expect(failure('Promise.resolve(1)').message).toBe('expression returned a promise, which has no JSON value');
    expect(failure('({ f() {} })').message).toMatch(/function at key "f"/);
  });

  it('surfaces errors thrown by the host scope', () => {
    const w = world();
    const scope = { ...scopeOf(w), inputs: () => { throw new Error('inputs unavailable'); } };
    expect(() => sandbox.evaluate('$inputs()', scope)).toThrow('inputs unavailable');
  });

  it('is not reentrant and refuses use after close', async () => {
    const w = world();
    const scope = { ...scopeOf(w), get: () => sandbox.evaluate('1', scopeOf(w)) };
    expect(() => sandbox.evaluate('$get("a")', scope)).toThrow(/not reentrant/);
    const other = await createSandbox();
    other.close();
    expect(() => other.evaluate('1', scopeOf(w))).toThrow(expect.objectContaining({ code: 'engine.closed' }));
  });
});

describe('isolation between evaluations', () => {
  it('keeps shared intrinsics untouched', () => {
    run('Array.prototype.map = null; Object.prototype.polluted = 1; Math.max = () => 0; JSON.stringify = null');
    expect(run('[1, 2].map((x) => x * 2)')).toEqual([2, 4]);
    expect(run('({}).polluted')).toBe(null);
    expect(run('Math.max(1, 2)')).toBe(2);
  });

  it('still allows assigning inherited names on own objects', () => {
    expect(run('class E extends Error { constructor(m) { super(m); this.name = "E"; } }; new E("m").name')).toBe('E');
    expect(run('const o = {}; o.toString = () => "custom"; String(o)')).toBe('custom');
  });

  it('drops globals a script defines on purpose, even non-configurable ones', () => {
    expect(run("Object.defineProperty(globalThis, 'leak', { value: 1 }); leak")).toBe(1);
    expect(run('typeof leak')).toBe('undefined');
  });

  it('rebuilds the context when a script locks or re-parents the global object', () => {
    expect(run('Object.preventExtensions(globalThis); 1')).toBe(1);
    expect(run('y = 1; y')).toBe(1);
    expect(run('Object.setPrototypeOf(globalThis, { planted: 1 }); 1')).toBe(1);
    expect(run('typeof planted')).toBe('undefined');
  });

  it('gives no shared mutable object to stash data in', () => {
    const expression = '[arguments.callee.stash, arguments.callee.stash = 1, console.stash, console.stash = 2][0]';
    const statements = 'const seen = [arguments.callee.stash, $get.stash]; arguments.callee.stash = 1; $get.stash = 2; seen';
    const fn = 'const seen = arguments.callee.prototype.stash; arguments.callee.prototype.stash = 1; return seen;';
    for (let i = 0; i < 2; i++) {
      expect(run(expression)).toBe(null);
      expect(run(statements)).toEqual([null, null]);
      expect(run(fn, world(), 'function')).toBe(null);
    }
  });

  it('runs queued promise jobs before returning', () => {
    const w = world();
    run("Promise.resolve(3).then((v) => $set('later', v)); 0", w);
    expect(w.chain[0].later).toBe(3);
  });
});

describe('hostile scripts', () => {
  function expectRecovered(): void {
    expect(run('a + 1')).toBe(2);
  }

  it('stops an endless loop near the time limit', () => {
    const start = performance.now();
    expect(failure('while (true) {}').message).toBe('script exceeded its time limit of 200 ms');
    expect(performance.now() - start).toBeLessThan(2000);
    expectRecovered();
  });

  it('stops a loop around slow builtins near the time limit', () => {
    const start = performance.now();
    expect(failure('for (;;) new Array(1e6).fill(1)').message).toBe('script exceeded its time limit of 200 ms');
    expect(performance.now() - start).toBeLessThan(2000);
    expectRecovered();
  });

  it('stops an endless chain of promise jobs', () => {
    expect(failure('function again() { Promise.resolve().then(again) } again(); 1').message).toMatch(/time limit/);
    expectRecovered();
  });

  it('stops huge allocations', () => {
    expect(failure("'x'.repeat(1e9)").message).toBe('script exceeded its memory limit of 32 MiB');
    expectRecovered();
    const start = performance.now();
    expect(failure('let big = []; while (true) big.push(new Array(1e6).fill(1))').message).toMatch(
      /memory limit of 32 MiB|time limit of 200 ms/,
    );
    expect(performance.now() - start).toBeLessThan(2000);
    expectRecovered();
  });

  it('stops deep recursion', () => {
    expect(failure('function f() { return f() } f()').message).toMatch(/stack limit of 512 KiB/);
    expectRecovered();
    expect(failure('const o = { get x() { return this.x } }; o.x').message).toMatch(/stack limit/);
    expectRecovered();
  });

  it('survives source nested deeper than the host stack, in every sandbox of the process', async () => {
    const other = await createSandbox();
    try {
      expect(failure('new Function("return " + "(".repeat(100000) + "1" + ")".repeat(100000))').message).toMatch(
        /stack limit/,
      );
      expectRecovered();
      expect(other.evaluate('a * 3', scopeOf(world()))).toBe(3);
    } finally {
      other.close();
    }
  });

  it.each([
    ["require('fs')", "'require' is not defined"],
    ['process.exit()', "'process' is not defined"],
    ["globalThis.constructor.constructor('return process')()", "'process' is not defined"],
    ["import('fs')", 'expression returned a promise, which has no JSON value'],
    ["std.loadFile('/etc/passwd')", "'std' is not defined"],
    ['fetch("http://example.com")', "'fetch' is not defined"],
  ])('has no host access: %s', (source, message) => {
    expect(failure(source).message).toBe(message);
    expectRecovered();
  });

  it('applies custom limits', async () => {
    const small = await createSandbox({ timeoutMs: 50, memoryBytes: 8 * 1024 * 1024 });
    try {
      expect(() => small.evaluate('for (;;) {}', scopeOf(world()))).toThrow('script exceeded its time limit of 50 ms');
      expect(() => small.evaluate("'x'.repeat(1e8)", scopeOf(world()))).toThrow(
        'script exceeded its memory limit of 8 MiB',
      );
      expect(small.evaluate('a', scopeOf(world()))).toBe(1);
    } finally {
      small.close();
    }
  });
});

describe('the time limit counts the time a script ran, not the time it waited', () => {
  /** Blocks this thread for `ms` without using the CPU (as a worker thread waits for one on a busy machine). */
  const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

  it.skipIf(process.platform !== 'linux')('a script that waited well past its limit without running still completes; a runaway one still stops', async () => {
    const small = await createSandbox({ timeoutMs: 100 });
    try {
      const base = scopeOf(world());
      // each read of `slow` blocks 150 ms: 300 ms of waiting, more than the limit and its allowance for scope calls
      const waiting: ScriptScope = { ...base, has: (name) => name === 'slow' || base.has(name), get: (name) => (name === 'slow' ? (sleep(150), 1) : base.get(name)) };
      expect(small.evaluate('slow + slow + a', waiting)).toBe(3);
      expect(() => small.evaluate('for (;;) {}', scopeOf(world()))).toThrow('script exceeded its time limit of 100 ms');
      // a guarded builtin in a long loop after the wait: the VM's own clock asks the host, which grants the rest
      expect(small.evaluate('slow; let s = 0; for (let i = 0; i < 50; i++) s += [1, 2].join("").length; s', waiting)).toBe(100);
      expect(() => small.evaluate('for (;;) { [1].join(""); }', scopeOf(world()))).toThrow('script exceeded its time limit of 100 ms');
    } finally {
      small.close();
    }
  });
});

describe('trial evaluations (a slice on the engine thread, read-only)', () => {
  it('return the value of a quick read-only expression and hand over its console output', () => {
    const w = world();
    expect(sandbox.evaluate("console.log('seen'); a + 1", scopeOf(w), 'script', { sliceMs: 1000 })).toBe(2);
    expect(w.logs).toEqual([['log', 'seen']]);
  });

  it('stop at the first write, leaving the scope and the console untouched', () => {
    const w = world();
    expect(() => sandbox.evaluate("console.log('no'); try { $set('a', 2) } catch {} ; a", scopeOf(w), 'script', { sliceMs: 1000 })).toThrow(EvaluationDeferred);
    expect(w.chain[0].a).toBe(1);
    expect(w.logs).toEqual([]);
  });

  it('stop at the slice even when the time goes to scope calls (they run on this thread too)', async () => {
    // a time limit of 5 s: code workers may add the time of their scope calls to it, a trial may not
    const slow = await createSandbox({ timeoutMs: 5000 });
    try {
      // each read takes 2 ms of this thread: nearly all of the trial's time is in scope calls
      const scope = scopeOf(world());
      const get = scope.get.bind(scope);
      scope.get = (name) => {
        const until = performance.now() + 2;
        while (performance.now() < until);
        return get(name);
      };
      const started = performance.now();
      expect(() => slow.evaluate("for (;;) { $get('a') }", scope, 'script', { sliceMs: 5 })).toThrow(EvaluationDeferred);
      expect(performance.now() - started).toBeLessThan(500);
      expect(slow.evaluate('a', scopeOf(world()))).toBe(1);
    } finally {
      slow.close();
    }
  });
});

describe('checkSyntax', () => {
  it('accepts valid sources without running them', () => {
    const w = world();
    expect(sandbox.checkSyntax('a + 1')).toBe(null);
    expect(sandbox.checkSyntax('{a: 1}')).toBe(null);
    expect(sandbox.checkSyntax('let x = 1; x + 1')).toBe(null);
    expect(sandbox.checkSyntax('$set("x", 1)')).toBe(null);
    expect(sandbox.checkSyntax('return 1', 'function')).toBe(null);
    expect(w.logs).toEqual([]);
  });

  it('reports syntax errors', () => {
    expect(sandbox.checkSyntax('a +')).toBe('unexpected end of expression');
    expect(sandbox.checkSyntax('return 1')).toMatch(/return/);
    expect(sandbox.checkSyntax('let x = ;', 'function')).toMatch(/unexpected/);
    expect(sandbox.checkSyntax('let a = 1;\nlet b = ;')).toMatch(/\(line 2\)$/);
    expect(sandbox.checkSyntax('const x = 1;\nreturn x +;', 'function')).toMatch(/\(line 2\)$/);
  });

  it('reports sources nested too deeply for the parser and stays usable', () => {
    const deep = '('.repeat(100000) + '1' + ')'.repeat(100000);
    expect(sandbox.checkSyntax(deep)).toBe('source is nested too deeply');
    expect(sandbox.checkSyntax(`return ${deep}`, 'function')).toBe('source is nested too deeply');
    expect(sandbox.checkSyntax('a + 1')).toBe(null);
    expect(run('a + 1')).toBe(2);
  });
});
