/**
 * Runtime configuration (spec 4.5): `acts.config.json` (or the file given with `--config`), then
 * environment variables on top. Every value is checked; a bad one is a clear error.
 *
 *   store                    DATABASE_URL               default file:./data/acts.db
 *   tick_interval_secs       ACTS_TICK_INTERVAL_SECS    default 15 (≤ 0 means 15)
 *   max_message_retry_times  ACTS_MAX_MESSAGE_RETRY_TIMES default 20
 *   cache_cap                ACTS_CACHE_CAP             default 1024 (resident processes)
 *   scheduler_workers        ACTS_SCHEDULER_WORKERS     default 4 (lanes)
 *   scheduler_queue_cap      ACTS_SCHEDULER_QUEUE_CAP   default 4096 (jobs held in memory, all lanes)
 *   store_writer_cap         ACTS_STORE_WRITER_CAP      default 10000 (writes waiting; then starts and actions are refused)
 *   step_budget              ACTS_STEP_BUDGET           default 100000 (tasks one process may create)
 *   incidents                ACTS_INCIDENTS             default false (1/true: an act failing with no catch holds its process for an operator; a workflow's `incidents` wins)
 *   value_cap_bytes          ACTS_VALUE_CAP_BYTES       default 1048576 (JSON of an act's result, a task's data, start inputs)
 *   code_workers             ACTS_CODE_WORKERS          default min(scheduler_workers, cores) (threads running code acts; 0 = on the engine's thread)
 *   sweep_after_secs         ACTS_SWEEP_AFTER_SECS      default unset (finished processes are kept)
 *   workdir_root             ACTS_WORKDIR_ROOT          default unset (no per-process directories)
 *   http_allow               ACTS_HTTP_ALLOW            default unset (http acts may call any host; comma-separated in the env)
 *   http_deny                ACTS_HTTP_DENY             default unset (comma-separated in the env)
 *   http_deny_private        ACTS_HTTP_DENY_PRIVATE     default false (1/true: no loopback, private or link-local address)
 *   shell_enable             ACTS_SHELL_ENABLE          default false (1/true: acts.app.shell acts run; else deploying or running one is shell.disabled)
 *   shell_root               ACTS_SHELL_ROOT            default <tmp>/acts-shell (directories of processes without a workdir, for shell acts)
 *   state_redis_url          ACTS_STATE_REDIS_URL       default unset (acts.app.state values in the store's `states` table; set: on this Redis)
 *   state_redis_prefix       ACTS_STATE_REDIS_PREFIX    default '' (put before every Redis key <pid>:<key>)
 *   otlp_traces_endpoint     OTEL_EXPORTER_OTLP_TRACES_ENDPOINT default unset (spans of processes over OTLP/HTTP to this URL)
 *   otlp_endpoint            OTEL_EXPORTER_OTLP_ENDPOINT default unset (the same, to <this URL>/v1/traces)
 *   otel_service_name        OTEL_SERVICE_NAME          default acts-studio (the spans' service.name)
 *   otel_disabled            OTEL_SDK_DISABLED          default false (true: no spans even with an endpoint)
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { ActError } from '../engine/errors.ts';
import { DEFAULT_STEP_BUDGET } from '../engine/step-budget.ts';
import { DEFAULT_VALUE_CAP_BYTES } from '../engine/value-cap.ts';
import { DEFAULT_STORE_URL } from '../store/open-store.ts';

const positiveInt = z.number().int().positive();

const configSchema = z
  .object({
    store: z.string().min(1).default(DEFAULT_STORE_URL),
    tick_interval_secs: z.number().default(15),
    max_message_retry_times: z.number().int().min(0).default(20),
    cache_cap: positiveInt.default(1024),
    scheduler_workers: positiveInt.default(4),
    scheduler_queue_cap: positiveInt.default(4096),
    store_writer_cap: positiveInt.default(10_000),
    code_workers: z.number().int().min(0).max(64).optional(),
    step_budget: positiveInt.default(DEFAULT_STEP_BUDGET),
    incidents: z.boolean().default(false),
    value_cap_bytes: positiveInt.default(DEFAULT_VALUE_CAP_BYTES),
    sweep_after_secs: z.number().min(0).optional(),
    workdir_root: z.string().min(1).optional(),
    http_allow: z.array(z.string().min(1)).optional(),
    http_deny: z.array(z.string().min(1)).optional(),
    http_deny_private: z.boolean().default(false),
    shell_enable: z.boolean().default(false),
    shell_root: z.string().min(1).optional(),
    state_redis_url: z.string().regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL').optional(),
    state_redis_prefix: z.string().optional(),
    otlp_traces_endpoint: z.string().url().optional(),
    otlp_endpoint: z.string().url().optional(),
    otel_service_name: z.string().min(1).optional(),
    otel_disabled: z.boolean().default(false),
  })
  .strict();

export type RuntimeConfig = z.infer<typeof configSchema>;

const ENV: Record<string, keyof RuntimeConfig> = {
  DATABASE_URL: 'store',
  ACTS_TICK_INTERVAL_SECS: 'tick_interval_secs',
  ACTS_MAX_MESSAGE_RETRY_TIMES: 'max_message_retry_times',
  ACTS_CACHE_CAP: 'cache_cap',
  ACTS_SCHEDULER_WORKERS: 'scheduler_workers',
  ACTS_SCHEDULER_QUEUE_CAP: 'scheduler_queue_cap',
  ACTS_STORE_WRITER_CAP: 'store_writer_cap',
  ACTS_CODE_WORKERS: 'code_workers',
  ACTS_STEP_BUDGET: 'step_budget',
  ACTS_INCIDENTS: 'incidents',
  ACTS_VALUE_CAP_BYTES: 'value_cap_bytes',
  ACTS_SWEEP_AFTER_SECS: 'sweep_after_secs',
  ACTS_WORKDIR_ROOT: 'workdir_root',
  ACTS_HTTP_ALLOW: 'http_allow',
  ACTS_HTTP_DENY: 'http_deny',
  ACTS_HTTP_DENY_PRIVATE: 'http_deny_private',
  ACTS_SHELL_ENABLE: 'shell_enable',
  ACTS_SHELL_ROOT: 'shell_root',
  ACTS_STATE_REDIS_URL: 'state_redis_url',
  ACTS_STATE_REDIS_PREFIX: 'state_redis_prefix',
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'otlp_traces_endpoint',
  OTEL_EXPORTER_OTLP_ENDPOINT: 'otlp_endpoint',
  OTEL_SERVICE_NAME: 'otel_service_name',
  OTEL_SDK_DISABLED: 'otel_disabled',
};

const TEXT_KEYS: ReadonlySet<keyof RuntimeConfig> = new Set(['store', 'workdir_root', 'shell_root', 'state_redis_url', 'state_redis_prefix', 'otlp_traces_endpoint', 'otlp_endpoint', 'otel_service_name']);
const FLAG_KEYS: ReadonlySet<keyof RuntimeConfig> = new Set(['http_deny_private', 'shell_enable', 'otel_disabled', 'incidents']);

/** An environment variable's value as the config key wants it (lists comma-separated, flags 1/true/0/false). */
function fromEnv(key: keyof RuntimeConfig, value: string): unknown {
  if (TEXT_KEYS.has(key)) return value;
  if (key === 'http_allow' || key === 'http_deny') return value.split(',').map((v) => v.trim()).filter(Boolean);
  if (FLAG_KEYS.has(key)) return value === '1' || value === 'true' ? true : value === '0' || value === 'false' ? false : value;
  return Number(value);
}

export const DEFAULT_CONFIG_FILE = 'acts.config.json';

function readFile(path: string, required: boolean): Record<string, unknown> {
  if (!existsSync(path)) {
    if (required) throw new ActError('config.invalid', `config file '${path}' does not exist`);
    return {};
  }
  try {
    const value = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error('expected a JSON object');
    return value as Record<string, unknown>;
  } catch (err) {
    throw new ActError('config.invalid', `config file '${path}' is not valid: ${(err as Error).message}`);
  }
}

/** Loads the configuration: file (optional unless named), then environment, then `overrides`. */
export function loadConfig(options: { file?: string; env?: NodeJS.ProcessEnv; overrides?: Partial<RuntimeConfig> } = {}): RuntimeConfig {
  const env = options.env ?? process.env;
  const raw: Record<string, unknown> = readFile(options.file ?? DEFAULT_CONFIG_FILE, options.file !== undefined);
  for (const [name, key] of Object.entries(ENV)) {
    const value = env[name]?.trim();
    if (!value) continue;
    raw[key] = fromEnv(key, value);
  }
  for (const [key, value] of Object.entries(options.overrides ?? {})) if (value !== undefined) raw[key] = value;
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'config'}: ${i.message}`).join('; ');
    throw new ActError('config.invalid', `invalid configuration: ${problems}`);
  }
  return parsed.data;
}
