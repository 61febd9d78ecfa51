/**
 * What deploy says about an interrupt act's answer form as written (`params.schema.properties`,
 * answer-fields.ts): an unknown type or format, choices that are not a list of values, a list
 * without rows of a simple type, a file's `maxBytes` or `accept` that no upload could meet. Each a
 * place (segments under `params`) and a sentence saying what to write. A value decided by a
 * template (`{{ … }}`) is left to the run. Keys it does not know are left alone (JSON Schema's
 * `minimum`, `default` …).
 */
import { ANSWER_FORMATS, ANSWER_TYPES, FILE_CAP_BYTES, formatBytes, isMediaType, isRecord, ITEM_TYPES } from './answer-fields.ts';

export interface AnswerFormProblem {
  at: string[];
  message: string;
}

const templated = (v: unknown) => typeof v === 'string' && v.includes('{{');
const isScalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
const EXAMPLE = 'e.g. `amount: { type: number, title: Amount }`';

/** `whose`: the field's name as the sentence says it (`field 'tags'`, `the rows of field 'tags'`). */
function choicesProblem(whose: string, choices: unknown): string | null {
  if (templated(choices)) return null;
  if (Array.isArray(choices) && choices.length > 0 && choices.every(isScalar)) return null;
  return `${whose}: \`enum\` lists the values to choose from, e.g. \`enum: [low, high]\``;
}

/** A problem of the field's `type` or `format`: the key it is at and its sentence. */
function typeProblem(name: string, spec: Record<string, unknown>): { key: 'type' | 'format'; message: string } | null {
  const { type, format } = spec;
  if (type !== undefined && !templated(type) && !(ANSWER_TYPES as readonly unknown[]).includes(type)) {
    const message = `field '${name}': unknown type '${String(type)}': use one of ${ANSWER_TYPES.join(', ')} (a date or a text area is \`type: string\` with \`format: date\` or \`format: multiline\`)`;
    return { key: 'type', message };
  }
  if (format === undefined || templated(format)) return null;
  if (!(ANSWER_FORMATS as readonly unknown[]).includes(format)) return { key: 'format', message: `field '${name}': unknown format '${String(format)}': use ${ANSWER_FORMATS.join(' or ')}` };
  if (type !== undefined && type !== 'string') return { key: 'format', message: `field '${name}': \`format: ${String(format)}\` is for \`type: string\` fields` };
  return null;
}

function itemsProblem(name: string, items: unknown): string | null {
  const how = `a list needs \`items\` of one simple type, e.g. \`items: { type: string }\` (${ITEM_TYPES.join(', ')}; \`format: date\`; or \`enum\`)`;
  if (templated(items)) return null;
  if (!isRecord(items)) return `field '${name}': ${how}`;
  if (items.enum !== undefined) return choicesProblem(`the rows of field '${name}'`, items.enum);
  const type = items.type ?? 'string';
  if (!(ITEM_TYPES as readonly unknown[]).includes(type) || (items.format !== undefined && items.format !== 'date')) return `field '${name}': ${how}`;
  if (items.format === 'date' && type !== 'string') return `field '${name}': ${how}`;
  return null;
}

function fileProblems(name: string, spec: Record<string, unknown>): Array<[string, string]> {
  const problems: Array<[string, string]> = [];
  const { maxBytes, accept } = spec;
  if (spec.type !== 'file') {
    for (const key of ['maxBytes', 'accept'] as const) {
      if (spec[key] !== undefined) problems.push([key, `field '${name}': \`${key}\` is for file fields (\`type: file\`)`]);
    }
    return problems;
  }
  if (maxBytes !== undefined && !templated(maxBytes) && !(typeof maxBytes === 'number' && Number.isInteger(maxBytes) && maxBytes >= 1 && maxBytes <= FILE_CAP_BYTES)) {
    problems.push(['maxBytes', `field '${name}': \`maxBytes\` is a whole number of bytes from 1 to ${FILE_CAP_BYTES} (${formatBytes(FILE_CAP_BYTES)}, the server's cap), e.g. 2097152 for 2 MiB`]);
  }
  if (accept !== undefined && !templated(accept) && !(Array.isArray(accept) && accept.length > 0 && accept.every((a) => typeof a === 'string' && isMediaType(a)))) {
    problems.push(['accept', `field '${name}': \`accept\` lists media types, e.g. \`accept: [application/pdf, image/*]\``]);
  }
  return problems;
}

function fieldProblems(name: string, spec: unknown): AnswerFormProblem[] {
  const at = ['schema', 'properties', name];
  if (templated(spec)) return [];
  if (!isRecord(spec)) return [{ at, message: `field '${name}' must be a map of its type, title and description, ${EXAMPLE}` }];
  const problems: AnswerFormProblem[] = [];
  const type = typeProblem(name, spec);
  if (type) problems.push({ at: [...at, type.key], message: type.message });
  if (spec.enum !== undefined) {
    const choices = choicesProblem(`field '${name}'`, spec.enum);
    if (choices) problems.push({ at: [...at, 'enum'], message: choices });
  }
  if (spec.type === 'array') {
    const items = itemsProblem(name, spec.items);
    if (items) problems.push({ at: [...at, 'items'], message: items });
  }
  for (const [key, message] of fileProblems(name, spec)) problems.push({ at: [...at, key], message });
  return problems;
}

/** What is wrong with the answer form of an interrupt's `params` (none when it has none, or it is right). */
export function answerFormProblems(params: unknown): AnswerFormProblem[] {
  if (!isRecord(params) || !isRecord(params.schema)) return [];
  const props = params.schema.properties;
  if (props === undefined || templated(props)) return [];
  if (!isRecord(props)) return [{ at: ['schema', 'properties'], message: `\`schema.properties\` maps each answer field to its type, ${EXAMPLE}` }];
  return Object.entries(props).flatMap(([name, spec]) => fieldProblems(name, spec));
}
