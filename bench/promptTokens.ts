import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { defaultSystemPrompt } from '../src/agent/loop/systemPrompt';
import { builtinTools } from '../src/agent/tools/builtins';
import { ToolRegistry } from '../src/agent/tools/toolRegistry';

/** o200k tokens of the default system prompt and of the built-in tool schemas as sent. */
export function benchPromptTokens(): { systemPrompt: number; toolSchemas: number; total: number } {
  const prompt = defaultSystemPrompt({ workspaceRoot: '/home/user/project', os: 'linux', date: '2026-11-21' });
  // Tools are sent as the API's `tools` array: count the JSON exactly as the adapter sends it.
  const tools = new ToolRegistry(builtinTools()).specs().map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.parameters },
  }));
  const systemPrompt = countTokens(prompt);
  const toolSchemas = countTokens(JSON.stringify(tools));
  return { systemPrompt, toolSchemas, total: systemPrompt + toolSchemas };
}
