/**
 * The script evaluated once in every fresh QuickJS context. It installs the helper globals of spec
 * 2.12, hardens the shared intrinsics (so one evaluation cannot tamper with the next), and returns
 * the `exec(mode, source)` function the host calls for every evaluation.
 *
 * State kept inside the VM: a per-evaluation cache of resolved names (cleared by every `exec`) and
 * caches of compiled expression/function wrappers keyed by source text.
 */
import { Mode, Op, STEP_MARK } from './protocol.ts';

const VM_SOURCE = String.raw`
(function (host, osName, timeoutMs) {
  'use strict';
  const Op = ${JSON.stringify(Op)};
  const Mode = ${JSON.stringify(Mode)};
  const STEP_MARK = ${JSON.stringify(STEP_MARK)};
  const G = globalThis;
  const { parse, stringify } = JSON;
  const { create, defineProperty, freeze, getOwnPropertyDescriptor, getOwnPropertyDescriptors } = Object;
  const { getPrototypeOf, isExtensible, keys } = Object;
  const { apply, ownKeys, deleteProperty } = Reflect;
  const FunctionCtor = Function;
  const PromiseCtor = Promise;
  const isArray = Array.isArray;
  const isSafeInteger = Number.isSafeInteger;
  const MISSING = freeze(create(null));
  const CACHE_LIMIT = 1000;

  // Values crossing to the host must have a JSON form.
  function bigintToNumber(v) {
    const n = Number(v);
    if (!isSafeInteger(n)) throw new RangeError('BigInt ' + v + ' is outside the safe integer range');
    return n;
  }
  function noJsonKind(v) {
    const t = typeof v;
    if (t === 'function' || t === 'symbol') return 'a ' + t;
    if (t === 'object' && v instanceof PromiseCtor) return 'a promise';
    return undefined;
  }
  function toJson(value, subject) {
    const kind = noJsonKind(value);
    if (kind) throw new TypeError(subject + ' ' + kind + ', which has no JSON value');
    if (typeof value === 'bigint') return stringify(bigintToNumber(value));
    const text = stringify(value, function (key, v) {
      if (typeof v === 'bigint') return bigintToNumber(v);
      const inner = noJsonKind(v);
      if (inner) throw new TypeError(subject + ' a value holding ' + inner + ' at key "' + key + '", which has no JSON value');
      return v;
    });
    return text === undefined ? 'null' : text;
  }
  function decode(text) {
    return text === undefined ? undefined : parse(text);
  }

  // Names resolved during the current evaluation (task variables, steps, user vars, local writes).
  const names = new Map();
  function lookup(name) {
    if (names.has(name)) return names.get(name);
    const found = host(Op.Lookup, name);
    const value = found === undefined ? MISSING : found === STEP_MARK ? stepProxy(name) : parse(found);
    names.set(name, value);
    return value;
  }

  // Traps that keep a proxy from storing anything on its target (which would outlive an evaluation).
  const sealedTraps = {
    defineProperty() { return false; },
    deleteProperty() { return false; },
    preventExtensions() { return false; },
    setPrototypeOf() { return false; },
  };

  let reserved = new Set();
  const scopeProxy = new Proxy(create(null), {
    ...sealedTraps,
    has(target, name) {
      return typeof name === 'string' && !reserved.has(name) && lookup(name) !== MISSING;
    },
    get(target, name) {
      if (typeof name !== 'string') return undefined;
      const value = lookup(name);
      return value === MISSING ? undefined : value;
    },
    set(target, name, value) {
      if (typeof name !== 'string') return false;
      names.set(name, value);
      return true;
    },
    deleteProperty(target, name) {
      if (typeof name === 'string') names.set(name, MISSING);
      return true;
    },
  });

  function stepProxy(id) {
    const data = () => decode(host(Op.StepData, id));
    const inputs = () => decode(host(Op.StepInputs, id));
    const read = (key) => decode(host(Op.StepGet, id, key));
    return new Proxy(create(null), {
      ...sealedTraps,
      get(target, key) {
        if (typeof key !== 'string') return undefined;
        if (key === 'data') return data;
        if (key === 'inputs') return inputs;
        return read(key);
      },
      set(target, key, value) {
        if (typeof key !== 'string') return false;
        host(Op.StepSet, id, key, toJson(value, id + '.' + key + ' was given'));
        names.delete(key);
        return true;
      },
      has(target, key) {
        return typeof key === 'string' && (key === 'data' || key === 'inputs' || read(key) !== undefined);
      },
      ownKeys() {
        const d = data();
        return d !== null && typeof d === 'object' ? keys(d) : [];
      },
      getOwnPropertyDescriptor(target, key) {
        if (typeof key !== 'string') return undefined;
        const value = read(key);
        return value === undefined ? undefined : { value, writable: true, enumerable: true, configurable: true };
      },
    });
  }

  const envProxy = new Proxy(create(null), {
    ...sealedTraps,
    get(target, key) {
      return typeof key === 'string' ? decode(host(Op.EnvGet, key)) : undefined;
    },
    set(target, key, value) {
      if (typeof key !== 'string') return false;
      host(Op.EnvSet, key, toJson(value, '$env.' + key + ' was given'));
      return true;
    },
    has(target, key) {
      return typeof key === 'string' && host(Op.EnvGet, key) !== undefined;
    },
    ownKeys() { return []; },
    getOwnPropertyDescriptor() { return undefined; },
  });

  function show(v) {
    try {
      if (typeof v === 'string') return v;
      if (v instanceof Error) return v.name + ': ' + v.message;
      if (v !== null && typeof v === 'object') {
        const text = stringify(v, (k, x) => (typeof x === 'bigint' ? String(x) : x));
        if (text !== undefined) return text;
      }
      return String(v);
    } catch (e) {
      return '[unprintable value]';
    }
  }
  const logger = (level) => function (...args) {
    host(Op.Log, level, args.map(show).join(' '));
  };

  const helpers = {
    $get(name) {
      const value = decode(host(Op.Get, String(name)));
      return value === undefined ? null : value;
    },
    $set(name, value) {
      name = String(name);
      host(Op.Set, name, toJson(value, "$set('" + name + "') was given"));
      names.delete(name);
    },
    $inputs() { return decode(host(Op.Inputs)); },
    $data() { return decode(host(Op.Data)); },
    $set_process_var(name, value) {
      name = String(name);
      host(Op.SetProcessVar, name, toJson(value, "$set_process_var('" + name + "') was given"));
      names.delete(name);
    },
    console: {
      log: logger('log'),
      info: logger('info'),
      warn: logger('warn'),
      error: logger('error'),
    },
    os: osName,
  };

  function setOperation(name, pick) {
    defineProperty(Array.prototype, name, {
      value: function (other) {
        if (!isArray(other)) throw new TypeError('Array.prototype.' + name + ' expects an array');
        return Array.from(new Set(pick(Array.from(this), other))).sort();
      },
      writable: false, enumerable: false, configurable: false,
    });
  }
  setOperation('union', (a, b) => a.concat(b));
  setOperation('intersection', (a, b) => { const s = new Set(b); return a.filter((x) => s.has(x)); });
  setOperation('difference', (a, b) => { const s = new Set(b); return a.filter((x) => !s.has(x)); });

  // QuickJS polls its interrupt handler only every ~10000 bytecode operations, so a loop around one
  // slow builtin (filling or joining a huge array) could overrun the time limit by minutes. These
  // builtins check the deadline themselves; once it passed, the host decides: more time, or every
  // call throws again.
  const now = Date.now;
  let deadline = Infinity;
  function guard(obj, methods) {
    for (const key of methods) {
      const d = getOwnPropertyDescriptor(obj, key);
      if (!d || typeof d.value !== 'function') continue;
      const native = d.value;
      const wrapped = {
        [key](...args) {
          // the host may grant more (a thread that waited for a CPU): it throws when the time is up
          if (now() > deadline) deadline = now() + host(Op.Expired);
          return apply(native, this, args);
        },
      }[key];
      defineProperty(wrapped, 'length', { value: native.length });
      defineProperty(obj, key, { ...d, value: wrapped });
    }
  }
  const linear = ['fill', 'join', 'indexOf', 'lastIndexOf', 'includes', 'reverse', 'slice', 'splice', 'concat', 'copyWithin', 'flat', 'sort', 'toSorted', 'toReversed', 'toSpliced', 'unshift', 'set'];
  guard(Array.prototype, linear);
  guard(getPrototypeOf(Uint8Array.prototype), linear);
  guard(Array, ['from']);
  guard(String.prototype, ['repeat', 'padStart', 'padEnd', 'split', 'replace', 'replaceAll', 'indexOf', 'lastIndexOf', 'includes', 'concat', 'normalize', 'toUpperCase', 'toLowerCase', 'localeCompare']);
  guard(JSON, ['stringify', 'parse']);
  guard(Object, ['keys', 'values', 'entries', 'assign']);

  // Callbacks that fire after an evaluation ended would run against another task's scope.
  deleteProperty(G, 'FinalizationRegistry');
  deleteProperty(G, 'WeakRef');

  // Assigning e.g. "err.name" or "obj.toString" must still work once the prototypes are frozen.
  function tame(obj, key) {
    const d = getOwnPropertyDescriptor(obj, key);
    if (!d || !('value' in d) || !d.configurable) return;
    const value = d.value;
    defineProperty(obj, key, {
      get: function () { return value; },
      set: function (v) {
        if (this === obj) throw new TypeError('Cannot assign to read only property "' + String(key) + '" of a shared prototype');
        defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
      },
      enumerable: d.enumerable,
      configurable: false,
    });
  }
  const common = ['constructor', 'toString', 'valueOf', 'toLocaleString', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable'];
  for (const k of common) tame(Object.prototype, k);
  for (const E of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError, InternalError, AggregateError]) {
    for (const k of ['name', 'message', 'constructor', 'toString']) tame(E.prototype, k);
  }
  for (const k of ['constructor', 'toString']) {
    tame(Function.prototype, k);
    tame(Array.prototype, k);
  }
  tame(Promise.prototype, 'constructor');

  // Install the helpers, then freeze everything reachable from the global object (except the global
  // object itself, so scripts may still create implicit globals; they are swept before the next run).
  for (const k of keys(helpers)) defineProperty(G, k, { value: helpers[k], writable: true, enumerable: false, configurable: true });
  const hidden = [
    getPrototypeOf(function* () {}),
    getPrototypeOf(async function () {}),
    getPrototypeOf(async function* () {}),
    getPrototypeOf([][Symbol.iterator]()),
    getPrototypeOf(''[Symbol.iterator]()),
    getPrototypeOf(new Map()[Symbol.iterator]()),
    getPrototypeOf(new Set()[Symbol.iterator]()),
    getPrototypeOf('a'.matchAll(/a/g)),
    getPrototypeOf(Uint8Array),
  ];
  const seen = new Set();
  const pending = [G, ...hidden];
  while (pending.length > 0) {
    const o = pending.pop();
    if (o === null || (typeof o !== 'object' && typeof o !== 'function') || seen.has(o)) continue;
    seen.add(o);
    pending.push(getPrototypeOf(o));
    const descriptors = getOwnPropertyDescriptors(o);
    for (const k of ownKeys(descriptors)) {
      const d = descriptors[k];
      const v = d.value;
      if (v !== null && (typeof v === 'object' || typeof v === 'function')) pending.push(v);
      else if (d.get || d.set) pending.push(d.get, d.set);
    }
  }
  seen.delete(G);
  for (const o of seen) freeze(o);
  defineProperty(G, '$env', { value: envProxy, writable: false, enumerable: false, configurable: false });
  for (const k of ownKeys(G)) {
    const d = getOwnPropertyDescriptor(G, k);
    if ('value' in d) defineProperty(G, k, { writable: false, configurable: false });
    else defineProperty(G, k, { configurable: false });
  }

  // Global names always mean the builtin or helper, never a task variable of the same name.
  const baseline = new Set(ownKeys(G));
  const baseProto = getPrototypeOf(G);
  reserved = new Set(ownKeys(G).filter((k) => typeof k === 'string'));
  for (const k of ['arguments', '__acts_scope', '__acts_src']) reserved.add(k);

  function sweepGlobals() {
    if (!isExtensible(G) || getPrototypeOf(G) !== baseProto) return false;
    const current = ownKeys(G);
    if (current.length === baseline.size) return true;
    for (const k of current) {
      if (!baseline.has(k) && !deleteProperty(G, k)) return false;
    }
    return ownKeys(G).length === baseline.size;
  }

  // Wrappers are shared by every evaluation of the same source and reachable via arguments.callee.
  function sealed(fn) {
    freeze(fn.prototype);
    return freeze(fn);
  }
  const runStatements = sealed(FunctionCtor('__acts_scope', '__acts_src', 'with (__acts_scope) { return eval(__acts_src); }'));
  const expressions = new Map();
  const functions = new Map();
  function remember(cache, key, value) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, value);
    return value;
  }
  function compileExpression(src) {
    const cached = expressions.get(src);
    if (cached !== undefined) return cached;
    let body = src.trimEnd();
    if (body.endsWith(';')) body = body.slice(0, -1);
    let fn = null;
    try {
      fn = sealed(FunctionCtor('__acts_scope', 'with (__acts_scope) { return (' + body + '\n); }'));
    } catch (e) {
      if (!(e instanceof SyntaxError) || e.message === 'stack overflow') throw e;
    }
    return remember(expressions, src, fn);
  }
  function compileFunction(src) {
    const cached = functions.get(src);
    if (cached !== undefined) return cached;
    const fn = sealed(FunctionCtor('__acts_scope', 'with (__acts_scope) { return (() => {\n' + src + '\n})(); }'));
    return remember(functions, src, fn);
  }

  return function exec(mode, src) {
    deadline = now() + timeoutMs;
    if (mode === Mode.CheckExpression) return compileExpression(src) !== null ? 'true' : 'false';
    if (mode === Mode.CheckFunction) {
      try {
        compileFunction(src);
        return 'null';
      } catch (e) {
        if (!(e instanceof SyntaxError)) throw e;
        return stringify({ message: e.message, line: e.lineNumber });
      }
    }
    names.clear();
    if (!sweepGlobals()) {
      host(Op.Dirty);
      throw new Error('the sandbox global object could not be cleaned');
    }
    try {
      let value;
      if (mode === Mode.Function) value = compileFunction(src)(scopeProxy);
      else {
        const fn = compileExpression(src);
        value = fn !== null ? fn(scopeProxy) : runStatements(scopeProxy, src);
      }
      return toJson(value, 'expression returned');
    } finally {
      names.clear();
    }
  };
})
`;

/** The bootstrap script; its completion value is a function `(host, osName, timeoutMs) => exec`. */
export function bootstrapSource(): string {
  return VM_SOURCE;
}
