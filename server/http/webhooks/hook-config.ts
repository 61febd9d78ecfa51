/** A hook trigger's params as its endpoint reads them (the package schema checked them at deploy), with the defaults. */
import { SIGNATURE_PRESETS, WEBHOOK_DEFAULTS, type SignaturePreset } from '../../../vocab/webhooks.ts';

export interface HookConfig {
  /** The stored secret's name; undefined: the trigger takes no deliveries. */
  secret: string | undefined;
  signature: SignaturePreset;
  /** The generic signature's header, lower case. */
  header: string;
  toleranceSecs: number;
  maxBytes: number;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const positive = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : fallback);

export function hookConfig(params: unknown): HookConfig {
  const p = isRecord(params) ? params : {};
  const signature = SIGNATURE_PRESETS.find((s) => s === p.signature) ?? WEBHOOK_DEFAULTS.signature;
  return {
    secret: typeof p.secret === 'string' && p.secret ? p.secret : undefined,
    signature,
    header: (typeof p.header === 'string' && p.header ? p.header : WEBHOOK_DEFAULTS.header).toLowerCase(),
    toleranceSecs: positive(p.tolerance_secs, WEBHOOK_DEFAULTS.toleranceSecs),
    maxBytes: positive(p.max_bytes, WEBHOOK_DEFAULTS.maxBytes),
  };
}
