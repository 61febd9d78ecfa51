/**
 * Size limits of API inputs and the zod pieces that enforce them. A breach is an issue marked
 * `too_large`, which errors.ts turns into `input.too_large`.
 */
import { z } from 'zod';
import { TOO_LARGE } from './errors.ts';
import { MAX_SECRET_BYTES } from '../../vocab/secrets.ts';
import { jsonBytes } from '../engine/value-cap.ts';

export const LIMITS = {
  /** A request body. */
  bodyBytes: 1024 * 1024,
  /** A model's YAML (or JSON) source. */
  yamlBytes: 256 * 1024,
  /** Variables, action options, trigger params, as JSON. */
  varsBytes: 64 * 1024,
  /** Ids: pids, tids, model ids, delivery ids. */
  idChars: 200,
  /** A draft's node layout, as JSON. */
  layoutBytes: 64 * 1024,
  /** Rows of one page. */
  pageSize: 500,
} as const;

const tooLarge = (what: string, max: number) => ({ message: `${what} is larger than ${Math.round(max / 1024)} KiB`, params: { [TOO_LARGE]: true } });

/** A model source text. */
export const yamlSource = z
  .string()
  .min(1, 'the model source is empty')
  .refine((s) => Buffer.byteLength(s, 'utf8') <= LIMITS.yamlBytes, tooLarge('the model source', LIMITS.yamlBytes));

/** A JSON object of variables (inputs, options, params). */
export const vars = z
  .record(z.string(), z.unknown())
  .refine((v) => jsonBytes(v) <= LIMITS.varsBytes, tooLarge('the variables', LIMITS.varsBytes));

/** A secret's value (server/secrets checks it is not empty). */
export const secretValue = z.string().refine((s) => Buffer.byteLength(s, 'utf8') <= MAX_SECRET_BYTES, tooLarge("the secret's value", MAX_SECRET_BYTES));

/** An id: a non-empty, bounded string. */
export const id = z.string().min(1).max(LIMITS.idChars);

/** Node positions by node id (a draft's layout): finite coordinates, bounded as JSON. */
export const layout = z
  .record(z.string().min(1).max(LIMITS.idChars), z.object({ x: z.number().finite(), y: z.number().finite() }).strict())
  .refine((v) => jsonBytes(v) <= LIMITS.layoutBytes, tooLarge('the layout', LIMITS.layoutBytes));
