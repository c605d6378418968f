import { CancelledError } from '../../../src/agent/errors';
import { OpenAICompatibleModel, type OpenAICompatibleModelOptions } from '../../../src/agent/model/openaiModel';
import type { ChatMessage, ModelHandlers, ModelRequest, ToolSpec } from '../../../src/agent/model/types';
import type { Clock } from '../../../src/agent/ports';
import { silentLogger } from '../../../src/agent/ports';
import { startFakeOpenAI, type FakeOpenAIServer, type FakeScript } from '../../support/fakeOpenAIServer';

/** A clock whose sleeps return at once and are recorded, so retry tests run fast and can read the delays. */
export interface RecordingClock extends Clock {
  sleeps: number[];
}

/** See `RecordingClock`; `now` starts at `start` and advances by each sleep. */
export function recordingClock(start = Date.parse('2025-03-01T12:00:00Z')): RecordingClock {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      sleeps.push(ms);
      if (signal?.aborted) throw new CancelledError();
      now += ms;
    },
  };
}

/** The model under test pointed at `baseURL`, with a recording clock unless one is given. */
export function makeModel(baseURL: string, options: Partial<OpenAICompatibleModelOptions> = {}): OpenAICompatibleModel {
  return new OpenAICompatibleModel({
    baseURL,
    apiKey: 'sk-test',
    model: 'fake-model',
    clock: recordingClock(),
    logger: silentLogger,
    random: () => 0.5,
    ...options,
  });
}

/** Two small tools in the shape the registry produces. */
export const readFileSpec: ToolSpec = {
  name: 'read_file',
  description: 'Reads a text file of the workspace.\nLonger details that the text protocol leaves out.',
  parameters: {
    type: 'object',
    properties: { path: { type: 'string', description: 'Workspace-relative path' } },
    required: ['path'],
    additionalProperties: false,
  },
};
export const listFilesSpec: ToolSpec = {
  name: 'list_files',
  description: 'Lists files in a folder.',
  parameters: { type: 'object', properties: { path: { type: 'string' } }, additionalProperties: false },
};

/** A request with a system and a user message and no tools; override what a test needs. */
export function chatRequest(overrides: Partial<ModelRequest> = {}): ModelRequest {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'You are a careful coding agent.' },
    { role: 'user', content: 'Say hello.' },
  ];
  return { messages, tools: [], toolChoice: 'auto', signal: new AbortController().signal, ...overrides };
}

/** Handlers that record everything they are told. */
export function recordingHandlers(): ModelHandlers & { texts: string[]; retries: { attempt: number; delayMs: number; reason: string }[]; notices: string[] } {
  const texts: string[] = [];
  const retries: { attempt: number; delayMs: number; reason: string }[] = [];
  const notices: string[] = [];
  return {
    texts,
    retries,
    notices,
    onText: (delta) => texts.push(delta),
    onRetry: (info) => retries.push(info),
    onNotice: (message) => notices.push(message),
  };
}

/** Awaits a promise that must reject, and returns what it rejected with. */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** For a `describe`: a starter of fake servers whose last one is closed after each test. */
export function fakeServerPerTest(): (script: FakeScript, options?: Parameters<typeof startFakeOpenAI>[1]) => Promise<FakeOpenAIServer> {
  let fake: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await fake?.close();
    fake = undefined;
  });
  return async (script, options) => (fake = await startFakeOpenAI(script, options));
}
