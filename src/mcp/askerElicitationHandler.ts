import type { Asker } from '../agent/ports';
import type { ElicitationHandler, ElicitationResponse } from './mcpTypes';

type FieldSchema = {
  type?: string;
  title?: string;
  description?: string;
  enum?: unknown[];
  oneOf?: { const?: unknown; title?: string }[];
  items?: { enum?: unknown[]; anyOf?: { const?: unknown }[] };
  default?: unknown;
};
type Value = string | number | boolean | string[];

function choices(field: FieldSchema): string[] | undefined {
  if (field.type === 'boolean') return ['true', 'false'];
  const raw = field.enum ?? field.oneOf?.map((option) => option.const) ?? field.items?.enum ?? field.items?.anyOf?.map((option) => option.const);
  return raw?.filter((value): value is string => typeof value === 'string');
}

/** Converts an answer to the field's type; `undefined` when it does not fit. */
function coerce(answer: string, field: FieldSchema): Value | undefined {
  const text = answer.trim();
  switch (field.type) {
    case 'boolean':
      if (/^(true|yes|y)$/i.test(text)) return true;
      if (/^(false|no|n)$/i.test(text)) return false;
      return undefined;
    case 'number':
    case 'integer': {
      const value = Number(text);
      if (text === '' || !Number.isFinite(value) || (field.type === 'integer' && !Number.isInteger(value))) return undefined;
      return value;
    }
    case 'array':
      return text.split(',').map((part) => part.trim()).filter(Boolean);
    default: {
      const allowed = choices(field);
      return allowed && !allowed.includes(text) ? undefined : text;
    }
  }
}

/**
 * An `ElicitationHandler` that asks one `Asker` question per field of the requested form. An empty
 * answer skips an optional field (its default is used when it has one) and declines for a required
 * one; a value of the wrong type is asked once more; no answer at all (headless) cancels.
 */
export function createAskerElicitationHandler(asker: Asker): ElicitationHandler {
  let counter = 0;
  return async (request, signal): Promise<ElicitationResponse> => {
    const properties = (request.requestedSchema.properties ?? {}) as Record<string, FieldSchema>;
    const required = new Set((request.requestedSchema.required as string[] | undefined) ?? []);
    const content: Record<string, Value> = {};
    for (const [key, field] of Object.entries(properties)) {
      const label = field.title ?? key;
      const optional = required.has(key) ? '' : ' (optional: leave empty to skip)';
      const question = `MCP server "${request.server}" asks: ${request.message}\n${label}${field.description ? ` - ${field.description}` : ''}${optional}`;
      const options = choices(field);
      let value: Value | undefined;
      for (let attempt = 0; attempt < 2 && value === undefined; attempt++) {
        const answer = await asker.ask({ callId: `mcp-elicitation-${++counter}`, question: attempt ? `${question}\n(Expected type: ${field.type ?? 'text'}.)` : question, ...(options ? { options } : {}) }, signal);
        if (answer === undefined) return { action: 'cancel' };
        if (answer.trim() === '') {
          if (required.has(key)) return { action: 'decline' };
          if (field.default !== undefined) content[key] = field.default as Value;
          break;
        }
        value = coerce(answer, field);
      }
      if (value !== undefined) content[key] = value;
      else if (required.has(key) && content[key] === undefined) return { action: 'decline' };
    }
    return { action: 'accept', content };
  };
}
