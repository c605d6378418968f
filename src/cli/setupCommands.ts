import { systemClock } from '../agent/clock';
import { CancelledError } from '../agent/errors';
import { silentLogger } from '../agent/ports';
import { Redactor } from '../agent/secrets/redactor';
import { SetupDraftError, SetupService } from '../host/common/setup/setupService';
import type { ProviderPresetInfo, SetupDraft, SetupErrorCode, SetupModel } from '../shared/setupProtocol';
import { UsageError } from './cliArgs';
import { cliPresets, parseSetupArgs, SETUP_USAGE, setupDraftOf, setupKeyOf, type SetupOptions } from './setupArgs';
import type { CliIo } from './cliIo';

/** Exit codes of `stepwise models | presets | check`. */
export const SETUP_EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;

/** A failure of the endpoint or of the options, with what to do about it. */
interface SetupFailure {
  code: SetupErrorCode;
  message: string;
  hint: string;
}

/** Output of one set-up command: everything printed is redacted (a server may echo the key). */
interface SetupOut {
  options: SetupOptions;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The endpoint a `models` / `check` command works on, and where its key came from. */
interface SetupTarget {
  service: SetupService;
  draft: SetupDraft;
  preset: ProviderPresetInfo;
  keySource: string;
  signal: AbortSignal;
}

/** Server-given text (model ids, messages) without terminal control characters. */
function printable(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g, '?');
}

/** What to do about a failure of `code`, in the CLI's terms (its flags and variables). */
export function setupHint(code: SetupErrorCode, keySource: string, preset: ProviderPresetInfo): string {
  switch (code) {
    case 'auth':
      return `The key was refused: put the right key in ${keySource}, or name another variable with --api-key-env VAR.`;
    case 'not_found':
      return preset.provider === 'azure-openai'
        ? 'Check --base-url (the resource endpoint) and --model (the deployment name).'
        : 'Check --base-url (it usually ends in /v1) and the model name (stepwise models lists them).';
    case 'unreachable':
      return preset.id === 'ollama' ? 'Start Ollama (ollama serve) or check --base-url.' : 'Start the server or check --base-url and your network.';
    case 'rate_limit':
      return 'The provider is limiting requests: wait a little and try again, or check your plan\'s limits.';
    case 'bad_request':
      return 'The server did not accept the request: check the model name' + (preset.provider === 'azure-openai' ? ' and --azure-api-version.' : '.');
    case 'bad_url':
      return 'Pass an http(s) URL with --base-url, e.g. http://127.0.0.1:11434/v1.';
    case 'no_key':
      return `Set ${keySource}, or name the variable holding the key with --api-key-env VAR.`;
    default:
      return 'Check that --base-url points at an OpenAI-compatible API.';
  }
}

/** Options problems (no key, bad URL) are usage errors; what the endpoint answered is a failure. */
function exitFor(code: SetupErrorCode): number {
  return code === 'no_key' || code === 'bad_url' ? SETUP_EXIT.usage : SETUP_EXIT.failed;
}

function printFailure(out: SetupOut, what: string, context: Record<string, unknown>, failure: SetupFailure): number {
  if (out.options.json) out.stdout(JSON.stringify({ ok: false, ...context, error: failure }) + '\n');
  else out.stderr(`stepwise: ${what}: ${printable(failure.message)}\n  ${failure.hint}\n`);
  return exitFor(failure.code);
}

const SOURCE_WORDS: Record<NonNullable<SetupModel['contextSource']>, string> = {
  num_ctx: 'num_ctx parameter',
  model_info: 'trained length',
  listing: 'from the listing',
  loaded: 'as loaded',
  vscode: 'as VS Code reports it',
};

function modelLine(model: SetupModel, loaded: Map<string, number | undefined> | undefined, width: number): string {
  const window = model.contextWindow ? `context ${model.contextWindow} (${SOURCE_WORDS[model.contextSource ?? 'listing']})` : 'context unknown';
  const state = !loaded ? '' : loaded.has(model.id) ? `loaded${loaded.get(model.id) ? ` with context ${loaded.get(model.id)}` : ''}` : 'not loaded';
  return `  ${printable(model.id).padEnd(width)}  ${window.padEnd(34)}${state}`.trimEnd() + '\n';
}

/** `stepwise models`: the endpoint's models through the set-up layer (the same listing as VS Code's set-up view). */
async function listCommand(out: SetupOut, { service, draft, preset, keySource, signal }: SetupTarget): Promise<number> {
  if (preset.modelList === 'none') {
    throw new UsageError(`${preset.label} does not list its models; test one with: stepwise check --preset ${preset.id} --base-url URL --model NAME`);
  }
  const { baseUrl } = service.endpointOf(draft);
  const context = { preset: preset.id, endpoint: baseUrl };
  const result = await service.models(draft, signal);
  if (result.error) return printFailure(out, `could not list the models at ${baseUrl}`, context, { ...result.error, hint: setupHint(result.error.code, keySource, preset) });
  const loaded = await service.loadedModels(draft, signal);
  if (signal.aborted) throw new CancelledError();
  const models = result.models.map((m) => ({ ...m, ...(loaded ? { loaded: loaded.has(m.id), ...(loaded.get(m.id) ? { loadedContextWindow: loaded.get(m.id) } : {}) } : {}) }));
  if (out.options.json) {
    out.stdout(JSON.stringify({ ok: true, ...context, models }) + '\n');
    return SETUP_EXIT.ok;
  }
  if (!models.length) {
    out.stdout(`${baseUrl} (${preset.label}) lists no models.${preset.id === 'ollama' ? ' Pull one with: ollama pull NAME' : ''}\n`);
    return SETUP_EXIT.ok;
  }
  out.stdout(`Models at ${baseUrl} (${preset.label}):\n`);
  const width = Math.min(60, Math.max(...models.map((m) => m.id.length)));
  for (const model of result.models) out.stdout(modelLine(model, loaded, width));
  return SETUP_EXIT.ok;
}

/** `stepwise check`: one tiny real request through the set-up layer's connection test. */
async function checkCommand(out: SetupOut, { service, draft, preset, keySource, signal }: SetupTarget): Promise<number> {
  if (!draft.model) throw new UsageError(`give the model to test: --model M or $STEPWISE_MODEL${preset.modelList === 'none' ? '' : ' (stepwise models lists them)'}`);
  const result = await service.test(draft, signal);
  const context = { preset: preset.id, endpoint: result.endpoint, model: result.model };
  if (!result.ok) return printFailure(out, `${result.endpoint || preset.label} (model ${result.model}) does not work`, context, { code: result.code, message: result.message, hint: setupHint(result.code, keySource, preset) });
  if (out.options.json) {
    out.stdout(JSON.stringify({ ok: true, ...context, latencyMs: result.latencyMs, reply: result.reply, ...(result.contextWindow ? { contextWindow: result.contextWindow } : {}) }) + '\n');
    return SETUP_EXIT.ok;
  }
  out.stdout(`Connected to ${result.endpoint} (model ${printable(result.model)}) in ${result.latencyMs} ms.\n`);
  // The CLI keeps no settings: the window Ollama loaded the model with is what a run should be told.
  if (result.contextWindow) out.stdout(`Context window: ${result.contextWindow} tokens, as the server loaded the model; pass --context-window ${result.contextWindow} to stepwise run.\n`);
  return SETUP_EXIT.ok;
}

function presetsCommand(out: SetupOut): number {
  const presets = cliPresets();
  if (out.options.json) {
    out.stdout(JSON.stringify({ presets: presets.map(({ id, label, provider, baseUrl, needsKey, modelList, suggestedModel }) => ({ id, label, provider, baseUrl, needsKey, listsModels: modelList !== 'none', suggestedModel })) }) + '\n');
    return SETUP_EXIT.ok;
  }
  for (const p of presets) {
    const url = p.baseUrl || (p.provider === 'azure-openai' ? '(your resource endpoint: --base-url)' : '(your server: --base-url)');
    out.stdout(`${p.id.padEnd(11)} ${p.label.padEnd(25)} ${url.padEnd(38)} ${p.needsKey ? 'key needed' : 'no key'}${p.modelList === 'none' ? ', no model list' : ''}\n`);
  }
  return SETUP_EXIT.ok;
}

/**
 * `stepwise models | presets | check`: the set-up layer VS Code's set-up view uses (presets, model
 * listing with context windows, the one-request connection test), for a terminal. Keys come from
 * the environment and are redacted from everything printed. Returns the exit code (SETUP_EXIT).
 */
export async function setupCommand(io: CliIo): Promise<number> {
  const redactor = new Redactor();
  redactor.addFromEnvironment(io.env);
  const stderr = (text: string) => io.stderr(redactor.redact(text));
  try {
    const options = parseSetupArgs(io.argv, io.env);
    if (!options) {
      io.stdout(SETUP_USAGE + '\n');
      return SETUP_EXIT.ok;
    }
    const out: SetupOut = { options, stdout: (text) => io.stdout(redactor.redact(text)), stderr };
    if (options.command === 'presets') return presetsCommand(out);
    const { draft, preset } = setupDraftOf(options);
    const { key, source } = setupKeyOf(options, io.env);
    if (key) redactor.add(key);
    const service = new SetupService({ storedKey: async () => key, clock: systemClock, logger: silentLogger });
    const target: SetupTarget = { service, draft, preset, keySource: source, signal: io.signal };
    try {
      return options.command === 'models' ? await listCommand(out, target) : await checkCommand(out, target);
    } catch (error) {
      if (!(error instanceof SetupDraftError)) throw error;
      return printFailure(out, options.command === 'models' ? 'cannot list the models' : 'cannot test the endpoint', { preset: preset.id }, { code: error.code, message: error.message, hint: setupHint(error.code, source, preset) });
    }
  } catch (error) {
    if (error instanceof CancelledError || io.signal.aborted) return SETUP_EXIT.cancelled;
    if (!(error instanceof UsageError)) throw error;
    stderr(`stepwise: ${error.message}\n(stepwise ${io.argv[0]} --help lists the options)\n`);
    return SETUP_EXIT.usage;
  }
}
