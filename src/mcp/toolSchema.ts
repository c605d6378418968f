import { AjvJsonSchemaValidator } from './mcpSdk';
import type { JsonSchemaType } from '@modelcontextprotocol/sdk/validation';

/** Checks arguments against a tool's JSON schema; `undefined` when they conform, else a readable problem. */
export type ArgumentsCheck = (args: unknown) => string | undefined;

/**
 * The schema as the model should see it: without `$schema` (ajv and several model APIs reject
 * unknown dialects), always an object with `properties`.
 */
export function modelFacingSchema(inputSchema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _dialect, ...schema } = inputSchema;
  return { ...schema, type: 'object', properties: (schema.properties as Record<string, unknown> | undefined) ?? {} };
}

/** Makes ajv's "data/a must be number" read "`a` must be number". */
function readableAjvMessage(message: string): string {
  return message
    .split(', ')
    .map((part) => part.replace(/^data\/(\S+)/, (_all, path: string) => `\`${path.replace(/\//g, '.')}\``).replace(/^data /, ''))
    .join('; ');
}

/**
 * Compiles argument checks for MCP tool schemas (ajv, as the SDK configures it). A schema ajv cannot
 * compile yields no check: the server still validates, and one odd schema must not hide a tool.
 */
export class ToolSchemaChecker {
  private readonly validator = new AjvJsonSchemaValidator();

  /** A check for `schema`, or `undefined` (plus the reason) when it cannot be compiled. */
  compile(schema: Record<string, unknown>): { check?: ArgumentsCheck; problem?: string } {
    try {
      const validate = this.validator.getValidator(modelFacingSchema(schema) as JsonSchemaType);
      return {
        check: (args) => {
          const result = validate(args);
          return result.valid ? undefined : readableAjvMessage(result.errorMessage);
        },
      };
    } catch (error) {
      return { problem: error instanceof Error ? error.message : String(error) };
    }
  }
}
