import { z } from 'zod';
import { systemClock } from '../../../src/agent/clock';
import { ToolError } from '../../../src/agent/errors';
import { EventStream } from '../../../src/agent/events/eventStream';
import { DEFAULT_LIMITS, type AgentRunOptions } from '../../../src/agent/loop/runTypes';
import { silentLogger } from '../../../src/agent/ports';
import { defineTool, type AnyTool } from '../../../src/agent/tools/tool';
import { ToolRegistry } from '../../../src/agent/tools/toolRegistry';
import type { AgentEvent, AgentEventOf, EventEnvelope } from '../../../src/shared/events';
import { ScriptedModel, type ScriptStep } from '../../support/scriptedModel';
import { recordingApprover, scriptedAsker, stubCommandRunner, stubWorkspace } from '../../support/stubPorts';

/** The `finish` tool as the loop expects it: its result carries `finish`. */
export const finishTool = defineTool({
  name: 'finish',
  description: 'End the task with a summary.',
  category: 'meta',
  parameters: z.object({ summary: z.string() }),
  execute: async ({ summary }) => ({ content: 'Task finished.', finish: { summary } }),
});

/** Echoes its text; records the order of calls. */
export function echoTool(log: string[] = []): AnyTool {
  return defineTool({
    name: 'echo',
    description: 'Echo a text.',
    category: 'read',
    parameters: z.object({ text: z.string() }),
    execute: async ({ text }) => {
      log.push(text);
      return { content: `echo: ${text}` };
    },
  });
}

/** A read tool with a required `path` and optional `start_line`; returns `content(path)`. */
export function readTool(content: (path: string) => string): AnyTool {
  return defineTool({
    name: 'read_file',
    description: 'Read a file.',
    category: 'read',
    parameters: z.object({ path: z.string(), start_line: z.number().int().positive().optional() }),
    execute: async ({ path }) => {
      if (path === 'missing.txt') throw new ToolError(`File not found: ${path}`);
      return { content: content(path) };
    },
  });
}

/** Options with in-memory ports; every event is recorded in `events`. */
export function makeRun(script: ScriptStep[] | ConstructorParameters<typeof ScriptedModel>[0], tools: AnyTool[], overrides: Partial<AgentRunOptions> = {}) {
  const model = new ScriptedModel(script);
  const envelopes: EventEnvelope[] = [];
  const stream = new EventStream('run-test');
  stream.subscribe((envelope) => envelopes.push(envelope));
  const controller = new AbortController();
  const approver = recordingApprover();
  const options: AgentRunOptions = {
    task: 'Do the task.',
    model,
    tools: new ToolRegistry(tools),
    workspace: stubWorkspace('/work/project'),
    commands: stubCommandRunner(),
    approver,
    asker: scriptedAsker(),
    logger: silentLogger,
    clock: systemClock,
    events: stream,
    signal: controller.signal,
    limits: { ...DEFAULT_LIMITS },
    ...overrides,
  };
  return {
    model,
    options,
    controller,
    approver,
    envelopes,
    events: () => envelopes.map((e) => e.event),
    ofType: <T extends AgentEvent['type']>(type: T) => envelopes.map((e) => e.event).filter((e): e is AgentEventOf<T> => e.type === type),
  };
}
