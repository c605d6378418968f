import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { startFakeOpenAI } from '../test/support/fakeOpenAIServer';

/** The fixed prompt of one task as the built CLI sent it: system message(s) and the `tools` array, in o200k tokens. */
export interface SentPrompt {
  task: string;
  systemPrompt: number;
  toolSchemas: number;
  total: number;
  tools: string[];
}

/** Runs `node dist/cli.js run <task> --no-plan` against a loopback fake model that finishes at once; resolves with its first request's fixed part. */
async function sentFor(task: string): Promise<SentPrompt> {
  const fake = await startFakeOpenAI([{ toolCalls: [{ name: 'finish', arguments: JSON.stringify({ summary: 'Done.' }) }] }]);
  const base = await mkdtemp(path.join(tmpdir(), 'stepwise-bench-prompt-'));
  try {
    const cli = path.join(__dirname, '..', 'dist', 'cli.js');
    const child = spawn(process.execPath, [cli, 'run', task, '--workspace', base, '--model', 'fake-model', '--base-url', fake.url, '--no-plan', '--json'], {
      stdio: 'ignore', env: { PATH: process.env.PATH ?? '', HOME: base, STEPWISE_HOME: path.join(base, '.home'), OPENAI_API_KEY: 'sk-bench', NO_COLOR: '1' },
    });
    await new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const body = fake.chatRequests()[0]?.body;
    if (!body) throw new Error(`the CLI sent no request for ${JSON.stringify(task)}`);
    const system = (body.messages ?? []).filter((m) => m.role === 'system').map((m) => String(m.content ?? '')).join('\n');
    const systemPrompt = countTokens(system);
    // Counted as the request carries it: the `tools` array's JSON exactly as sent.
    const toolSchemas = body.tools?.length ? countTokens(JSON.stringify(body.tools)) : 0;
    return { task, systemPrompt, toolSchemas, total: systemPrompt + toolSchemas, tools: (body.tools ?? []).map((t) => t.function.name) };
  } finally {
    await fake.close();
    await rm(base, { recursive: true, force: true });
  }
}

/**
 * What the default single agent is sent before the task's own words, measured on the wire: the
 * built CLI (which registers the web tools) against a loopback fake model, for a task that does not
 * ask for the web and for one that does.
 */
export async function benchPromptTokens(): Promise<SentPrompt[]> {
  return [await sentFor('Fix the failing test in src/parser.ts'), await sentFor('Summarise https://example.com/changelog')];
}
