import assert from 'node:assert/strict';
import { EventStream } from '../../../src/agent/events/eventStream';
import { Redactor } from '../../../src/agent/secrets/redactor';
import { childEnvironment } from '../../../src/agent/secrets/childEnvironment';
import { looksSecret } from '../../../src/agent/secrets/secretEnv';
import type { EventEnvelope } from '../../../src/shared/events';

describe('secret-free environments', () => {
  const rows: Array<[string, boolean]> = [
    ['OPENAI_API_KEY', true], ['STEPWISE_API_KEY', true], ['ANTHROPIC_API_KEY', true], ['GITHUB_TOKEN', true], ['NPM_TOKEN', true],
    ['AWS_SECRET_ACCESS_KEY', true], ['DB_PASSWORD', true], ['MY_SECRET', true], ['API_KEY', true], ['GOOGLE_APIKEY', true],
    ['PATH', false], ['HOME', false], ['TERM', false], ['GIT_TERMINAL_PROMPT', false], ['TOKENIZERS_PARALLELISM', false], ['SSH_AUTH_SOCK', false],
  ];
  it('recognises secret-looking names', () => {
    for (const [name, secret] of rows) assert.equal(looksSecret(name), secret, name);
  });

  it('drops secret-looking names and known secret values, keeps the rest and what is passed through', () => {
    const env = { PATH: '/bin', OPENAI_API_KEY: 'sk-abc', GITHUB_TOKEN: 'ghp_x', COPY: 'prefix-sk-abc', HOME: '/h', NPM_TOKEN: 'n' };
    const clean = childEnvironment({ kind: 'command', parent: env, rules: { passThrough: ['NPM_TOKEN'], isSecretValue: (v) => v.includes('sk-abc') } });
    assert.deepEqual(clean, { PATH: '/bin', HOME: '/h', NPM_TOKEN: 'n' });
  });

  it('keeps an MCP server entry\'s own variables unless one carries a known secret', () => {
    const explicit = { TOKEN: 'my-server-token', LEAK: 'sk-model-key-1234567890' };
    assert.deepEqual(childEnvironment({ kind: 'server', parent: {}, explicit, rules: { isSecretValue: (v) => v === 'sk-model-key-1234567890' } }), { TOKEN: 'my-server-token' });
  });
});

describe('redaction at the event stream', () => {
  it('cleans every event before a listener sees it, and inner text through redactText', () => {
    const redactor = new Redactor();
    redactor.addFromEnvironment({ OPENAI_API_KEY: 'key-1234567890', SHORT_TOKEN: 'abc' });
    const stream = new EventStream('r', () => 0, undefined, (t) => redactor.redact(t));
    const seen: EventEnvelope[] = [];
    stream.subscribe((e) => seen.push(e));
    stream.emit({ type: 'error', code: 'auth', message: 'Incorrect API key provided: key-1234567890' });
    stream.emit({ type: 'tool_output', callId: 'c', stream: 'stdout', chunk: 'OPENAI_API_KEY=key-1234567890 SHORT_TOKEN=abc\n' });
    assert.deepEqual(seen.map((e) => JSON.stringify(e.event)).filter((t) => t.includes('key-1234567890')), []);
    assert.match(JSON.stringify(seen[0]!.event), /\[redacted\]/);
    assert.match(JSON.stringify(seen[1]!.event), /SHORT_TOKEN=abc/, 'values too short to redact safely stay');
    assert.equal(stream.redactText('x key-1234567890 y'), 'x [redacted] y');
  });
});
