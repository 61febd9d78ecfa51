/**
 * Signed webhook triggers (`acts.event.hook`): the signature formats a trigger may ask for and the
 * defaults of its params. Shared by the package's params schema (the studio's form, deploy checks)
 * and the server's /hooks endpoint (server/http/webhooks).
 */

/** `github` (X-Hub-Signature-256), `stripe` (Stripe-Signature), `generic` (t=…,v1=… in a header of the trigger's choosing). */
export const SIGNATURE_PRESETS = ['github', 'stripe', 'generic'] as const;
export type SignaturePreset = (typeof SIGNATURE_PRESETS)[number];

export const WEBHOOK_DEFAULTS = {
  signature: 'generic' as SignaturePreset,
  header: 'X-Acts-Signature',
  toleranceSecs: 300,
  maxBytes: 1024 * 1024,
  /** Longest `?wait=` for the process's outputs. */
  maxWaitSecs: 60,
};

/** The path of a hook trigger's endpoint. */
export function webhookPath(mid: string, trigger: string): string {
  return `/hooks/${encodeURIComponent(mid)}/${encodeURIComponent(trigger)}`;
}
