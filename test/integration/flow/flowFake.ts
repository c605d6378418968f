import type { FakeAnswer, FakeScript, FakeTurn, RecordedRequest } from '../../support/fakeOpenAIServer';

/**
 * Who sent a request to the fake model, told from the tools it offers (the flow's structured calls
 * each offer their own) and, for step agents, the step title in the `# Your step` message.
 * `recovery` is the updater after a failed step (retry / skip / stop).
 */
export type Caller = 'coordinator' | 'planner' | 'updater' | 'recovery' | 'report' | 'direct' | `step:${string}`;

/** The tool names a recorded request offered. */
export function offeredTools(request: RecordedRequest): string[] {
  return (request.body?.tools ?? []).map((t) => t.function.name);
}

/** The caller of a recorded request. */
export function callerOf(request: RecordedRequest): Caller {
  const tools = offeredTools(request);
  if (tools.includes('route')) return 'coordinator';
  if (tools.includes('create_plan')) return 'planner';
  if (tools.includes('update_plan')) return 'updater';
  if (tools.includes('retry_step')) return 'recovery';
  if (tools.includes('write_report')) return 'report';
  for (const message of request.body?.messages ?? []) {
    if (message.role !== 'user' || typeof message.content !== 'string') continue;
    const title = /^# Your step \(\d+ of \d+\): (.*)$/m.exec(message.content)?.[1];
    if (title !== undefined) return `step:${title}`;
  }
  return 'direct';
}

/** How far into its own conversation a request is: the number of assistant turns it carries. */
export function turnOf(request: RecordedRequest): number {
  return (request.body?.messages ?? []).filter((m) => m.role === 'assistant').length;
}

/** A caller's answers: a list indexed by `turnOf` (its conversation so far), or a function. */
export type CallerScript = FakeTurn[] | ((request: RecordedRequest, turn: number) => FakeTurn);

/** Answers per caller. */
export type FlowScript = Partial<Record<Caller, CallerScript>>;

/**
 * A fake-server script that answers each part of the flow from its own script, so tests do not
 * depend on the global order or count of calls. A request nobody scripted gets a 400 naming the
 * caller (not retried by the client), so the run fails loudly instead of hanging.
 */
export function flowScript(script: FlowScript): FakeScript {
  return (request) => {
    const caller = callerOf(request);
    const entry = script[caller];
    const turn = turnOf(request);
    const answer = entry === undefined ? undefined : typeof entry === 'function' ? entry(request, turn) : entry[turn];
    if (answer !== undefined) return answer;
    const what = entry === undefined ? 'nothing scripted' : `no answer for turn ${turn}`;
    return { status: 400, body: { error: { message: `flowFake: ${what} for ${caller}`, type: 'invalid_request_error' } } };
  };
}

/** An answer that calls one tool; a string is sent verbatim (it may be malformed on purpose). */
export function call(name: string, args: unknown, text?: string): FakeAnswer {
  return { ...(text ? { text } : {}), toolCalls: [{ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) }] };
}

/** An answer that calls `finish`. */
export function finish(summary: string): FakeAnswer {
  return call('finish', { summary });
}

/** The recorded chat requests of one caller, in order. */
export function requestsOf(requests: readonly RecordedRequest[], caller: Caller): RecordedRequest[] {
  return requests.filter((r) => r.path.startsWith('/v1/chat/completions') && callerOf(r) === caller);
}

/** Everything a request shows the model, as one string (to search for leaks). */
export function requestText(request: RecordedRequest): string {
  return (request.body?.messages ?? [])
    .map((m) => `${typeof m.content === 'string' ? m.content : JSON.stringify(m.content ?? '')}${m.tool_calls ? JSON.stringify(m.tool_calls) : ''}`)
    .join('\n');
}

/** The system prompt of a request. */
export function systemPrompt(request: RecordedRequest): string {
  const first = request.body?.messages?.[0];
  return first?.role === 'system' && typeof first.content === 'string' ? first.content : '';
}
