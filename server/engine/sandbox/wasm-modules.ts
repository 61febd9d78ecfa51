/**
 * Process-wide QuickJS WebAssembly modules (stateful).
 *
 * One module is loaded per process and shared by every sandbox. Two more are kept warm as spares
 * (about 1.5 MB of resident memory each): when the host's own stack overflows while QuickJS code is running (deeply nested source or
 * data can exhaust V8's stack before QuickJS's stack check fires), the exception unwinds through
 * WebAssembly frames and leaves that module's memory in an unknown state. The module is then
 * retired, a spare takes over synchronously, and a new spare loads in the background.
 */
import { newQuickJSWASMModule, type QuickJSWASMModule } from 'quickjs-emscripten';

const SPARES = 2;

let current: QuickJSWASMModule | undefined;
const spares: QuickJSWASMModule[] = [];
let loading: Promise<void> | undefined;

function full(): boolean {
  return current !== undefined && spares.length >= SPARES;
}

function fill(): Promise<void> {
  if (full()) return Promise.resolve();
  loading ??= (async () => {
    try {
      while (!full()) {
        const module = await newQuickJSWASMModule();
        if (!current) current = module;
        else spares.push(module);
      }
    } finally {
      loading = undefined;
    }
  })();
  return loading;
}

/** Resolves once the shared module and its spares are loaded. */
export async function loadModules(): Promise<void> {
  await fill();
}

/** The module new runtimes must be created on; undefined while a replacement is still loading. */
export function currentModule(): QuickJSWASMModule | undefined {
  return current;
}

/** Takes a module whose memory can no longer be trusted out of service. */
export function retireModule(module: QuickJSWASMModule): void {
  if (module !== current) return;
  current = spares.shift();
  fill().catch(() => undefined);
}
