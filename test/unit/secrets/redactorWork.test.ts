import assert from 'node:assert/strict';
import { envLineWork, Redactor, redactEnvLines } from '../../../src/agent/secrets/redactor';
import { looksSecret } from '../../../src/agent/secrets/secretEnv';

// The ENV_LINE scan is skipped when no secret-looking `NAME=` is in the text (issue 28: a 50 MB
// write_file argument passes the redactor several times). These tests pin that the skip never
// hides a value the scan would have replaced, and count the scans it saves.

const VALUE = 'supersecretvalue42';

/** Where a `NAME=value` line may stand, raw and in an event's JSON form. */
const FORMS: Array<[string, (name: string) => string]> = [
  ['a plain line', (name) => `x\n${name}=${VALUE}\n`],
  ['export and quotes', (name) => `export ${name}="${VALUE}"`],
  ['a gutter', (name) => `12| ${name}=${VALUE}`],
  ['a markdown list', (name) => `- ${name}=${VALUE}`],
  ['a JSON string', (name) => JSON.stringify({ content: `line\n${name}=${VALUE}\n` })],
  ['a JSON string with a tab', (name) => JSON.stringify({ content: `\t${name}='${VALUE}'` })],
];

const NAMES = ['API_KEY', 'OPENAI_API_KEY', 'openai_apikey', 'MY_APIKEY_FILE', 'GITHUB_TOKEN', 'TOKEN', 'SLACK_AUTH_TOKEN', 'X_AUTHTOKEN_Y',
  'DB_SECRET_VALUE', 'secret', 'PASSWORD', 'db_passwd', 'AWS_ACCESS_KEY', 'PRIVATE_KEY', 'SIGNING_KEY', 'GOOGLE_CREDENTIALS', 'a.b-SECRET.c'];

describe('redactEnvLines: the skip when no secret-looking name is assigned', () => {
  for (const [form, make] of FORMS) {
    it(`still replaces every secret-looking name's value in ${form}`, () => {
      for (const name of NAMES) {
        assert.ok(looksSecret(name), name);
        assert.doesNotMatch(redactEnvLines(make(name)), new RegExp(VALUE), `${name} in ${form}`);
      }
    });
  }

  it('agrees with looksSecret on generated names (the skip is a superset of SECRET_NAME)', () => {
    const pieces = ['API', 'KEY', '_', 'TOKEN', 'AUTH', 'SECRET', 'X', 'ACCESS', 'PRIVATE', 'SIGNING', 'PASSWD', 'PASSWORD', 'CREDENTIAL', 'APIKEY', 'a', '1', '.', '-', 'n'];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648);
    let secretNames = 0;
    for (let i = 0; i < 4000; i++) {
      const length = 1 + (next() % 5);
      let name = '';
      for (let j = 0; j < length; j++) name += pieces[next() % pieces.length];
      if (!/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(name) || !looksSecret(name)) continue;
      secretNames++;
      assert.doesNotMatch(redactEnvLines(`${name}=${VALUE}`), new RegExp(VALUE), name);
      assert.doesNotMatch(redactEnvLines(JSON.stringify(`a\n${name}=${VALUE}`)), new RegExp(VALUE), name);
    }
    assert.ok(secretNames > 200, `only ${secretNames} secret-looking names generated`);
  });

  it('scans a multi-megabyte generated file only when it assigns a secret-looking name', () => {
    const code = 'const value = "write_file bench line with some text in it";\nlet a=b+c; x.y=z;\n'.repeat(60_000);
    const redactor = new Redactor();
    redactor.add('sk-bench-registered');
    const before = { ...envLineWork };
    assert.equal(redactor.redact(code), code);
    assert.equal(envLineWork.checked - before.checked, 1);
    assert.equal(envLineWork.scanned - before.scanned, 0, 'no ENV_LINE scan over code without a secret-looking NAME=');
    const withSecret = `${code}API_KEY=${VALUE}\n`;
    assert.doesNotMatch(redactor.redact(withSecret), new RegExp(VALUE));
    assert.equal(envLineWork.scanned - before.scanned, 1);
    assert.equal(envLineWork.scannedChars - before.scannedChars, withSecret.length);
  });

  it('leaves assignments of ordinary names alone, as before', () => {
    for (const text of ['TOKENIZER=o200k_base_big', 'KEYBOARD=us-international', 'class="row" id="a1"', 'a==b', 'MONKEY=bananas123']) {
      assert.equal(redactEnvLines(text), text);
    }
  });
});
