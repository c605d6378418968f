import type { ProviderPresetInfo, SetupDraft, SetupModel, SetupState } from '../../src/shared/setupProtocol';
import type { WebviewIntent } from '../../src/shared/webviewProtocol';
import { icon } from './icons';
import { button, formatCount, h, replaceChildren, setShown, setText } from './dom';
import type { AppState } from './store';
import { errorWords, type StringKey, type Translate } from './strings';

/**
 * The model set-up in the sidebar: provider presets, base URL (and Azure's API version), the key
 * (sent to the host only with a request, never kept in webview state), the endpoint's model list
 * with context windows, "Test connection" and Save. Shown instead of the chat when no model is
 * configured, and from the model switcher under the chat box.
 */
export class SetupView {
  readonly element: HTMLElement;
  private readonly intro = h('p', { class: 'muted' });
  private readonly provider = h('select', { 'data-role': 'setup-provider' });
  private readonly baseUrl = h('input', { type: 'text', 'data-role': 'setup-base-url', spellcheck: 'false' });
  private readonly apiVersion = h('input', { type: 'text', 'data-role': 'setup-api-version', spellcheck: 'false' });
  private readonly key = h('input', { type: 'password', 'data-role': 'setup-key', autocomplete: 'off' });
  private readonly modelList = h('select', { 'data-role': 'setup-model-list' });
  private readonly model = h('input', { type: 'text', 'data-role': 'setup-model', spellcheck: 'false' });
  private readonly listNote = h('p', { class: 'muted setup-note', 'data-role': 'setup-models-note', 'aria-live': 'polite' });
  private readonly summary = h('p', { class: 'setup-summary', 'data-role': 'setup-summary' });
  private readonly result = h('p', { class: 'setup-result', 'data-role': 'setup-test-result', role: 'status' });
  private readonly labels = {
    title: h('h2', {}), provider: h('span', {}), baseUrl: h('span', {}), apiVersion: h('span', {}), key: h('span', {}), model: h('span', {}),
    keyHint: h('span', { class: 'muted setup-hint' }),
  };
  private readonly rows: { baseUrl: HTMLElement; apiVersion: HTMLElement; key: HTMLElement; modelList: HTMLElement };
  private readonly testButton: HTMLButtonElement;
  private readonly saveButton: HTMLButtonElement;
  private readonly cancelButton: HTMLButtonElement;
  private readonly refreshButton: HTMLButtonElement;
  private readonly moreButton: HTMLButtonElement;
  private models: SetupModel[] = [];
  /** Whether the shown list is an endpoint's answer: "lists no models" is said only after one answered. */
  private listAnswered = false;
  /** The endpoint refused the key typed or stored: the key hint says so instead of "not needed". */
  private keyRefused = false;
  /** Windows the server said it loaded models with (after a test), for the endpoint in the form; they beat the listing's. */
  private readonly loaded = new Map<string, number>();
  private listRequest = 0;
  private testRequest = 0;
  private seenSetup: SetupState | undefined;
  private seenReply: AppState['setupReply'];
  private state?: AppState;

  constructor(
    private readonly post: (intent: WebviewIntent) => boolean,
    /** `false`: the user cancelled; `true`: a save was sent (keep the form until the host has saved). */
    private readonly setOpen: (open: boolean) => void,
  ) {
    this.testButton = button('', () => this.test(), { action: 'setup-test' });
    this.saveButton = button('', () => this.save(), { kind: 'primary', action: 'setup-save' });
    this.cancelButton = button('', () => this.setOpen(false), { action: 'setup-cancel' });
    this.refreshButton = button('', () => this.listModels(), { kind: 'icon', icon: icon('retry'), action: 'setup-refresh-models' });
    this.moreButton = button('', () => this.post({ type: 'openSettings' }), { action: 'open-settings' });
    this.provider.addEventListener('change', () => this.presetChanged());
    this.baseUrl.addEventListener('change', () => {
      this.loaded.clear();
      this.listModels();
    });
    this.key.addEventListener('change', () => this.listModels());
    this.modelList.addEventListener('change', () => {
      if (this.modelList.value) this.model.value = this.modelList.value;
      this.drawSummary();
    });
    this.model.addEventListener('input', () => this.drawSummary());
    const field = (label: HTMLElement, control: HTMLElement, ...extra: HTMLElement[]) => h('label', { class: 'setup-field' }, label, control, ...extra);
    this.rows = {
      baseUrl: field(this.labels.baseUrl, this.baseUrl),
      apiVersion: field(this.labels.apiVersion, this.apiVersion),
      key: field(this.labels.key, this.key, this.labels.keyHint),
      modelList: h('div', { class: 'setup-model-row' }, this.modelList, this.refreshButton),
    };
    this.element = h('section', { class: 'setup', 'data-role': 'setup' },
      this.labels.title, this.intro,
      field(this.labels.provider, this.provider),
      this.rows.baseUrl, this.rows.apiVersion, this.rows.key,
      h('div', { class: 'setup-field' }, this.labels.model, this.rows.modelList, this.model, this.listNote),
      this.summary,
      h('div', { class: 'buttons' }, this.testButton, this.saveButton, this.cancelButton),
      this.result,
      h('div', { class: 'buttons setup-more' }, this.moreButton));
  }

  /** Fills the form from the host's set-up state (when it changes) and shows the host's answers. */
  render(state: AppState, canCancel: boolean): void {
    this.state = state;
    const t = state.t;
    if (state.setup && state.setup !== this.seenSetup) this.load(state.setup);
    if (state.setupReply !== this.seenReply) this.answer(state.setupReply, t);
    setText(this.labels.title, t('setupTitle'));
    setText(this.intro, t('setupIntro'));
    setText(this.labels.provider, t('setupProvider'));
    setText(this.labels.apiVersion, t('setupApiVersion'));
    setText(this.labels.key, t('setupKey'));
    setLabel(this.testButton, t('setupTest'));
    setLabel(this.saveButton, t('setupSave'));
    setLabel(this.cancelButton, t('setupCancel'));
    this.refreshButton.title = t('setupRefresh');
    this.refreshButton.setAttribute('aria-label', t('setupRefresh'));
    setLabel(this.moreButton, t('setupMore'));
    setShown(this.cancelButton, canCancel);
    this.drawPreset();
  }

  /** Puts the caret in the first field. */
  focus(): void {
    this.provider.focus();
  }

  private preset(): ProviderPresetInfo | undefined {
    return this.state?.setup?.presets.find((p) => p.id === this.provider.value);
  }

  private load(setup: SetupState): void {
    this.seenSetup = setup;
    replaceChildren(this.provider, ...setup.presets.map((p) => h('option', { value: p.id }, p.label)));
    this.provider.value = setup.presetId;
    this.baseUrl.value = setup.baseUrl;
    this.apiVersion.value = setup.apiVersion;
    this.model.value = setup.model;
    this.key.value = '';
    this.models = [];
    this.listAnswered = false;
    this.keyRefused = false;
    this.loaded.clear();
    this.drawModels();
    setText(this.result, '');
    this.listModels();
  }

  private presetChanged(): void {
    const preset = this.preset();
    if (!preset) return;
    const same = preset.id === this.seenSetup?.presetId;
    this.baseUrl.value = same ? this.seenSetup!.baseUrl || preset.baseUrl : preset.baseUrl;
    this.model.value = same ? this.seenSetup!.model : preset.suggestedModel;
    this.key.value = '';
    this.models = [];
    this.listAnswered = false;
    this.keyRefused = false;
    this.loaded.clear();
    this.drawModels();
    setText(this.result, '');
    this.result.className = 'setup-result';
    this.drawPreset();
    this.listModels();
  }

  /** Shows the fields the preset uses and their labels. */
  private drawPreset(): void {
    const t = this.state!.t;
    const preset = this.preset();
    const azure = preset?.provider === 'azure-openai';
    const lm = preset?.provider === 'vscode-lm';
    setShown(this.rows.baseUrl, Boolean(preset) && !lm);
    this.baseUrl.readOnly = !preset?.editableUrl;
    setText(this.labels.baseUrl, azure ? t('setupEndpoint') : t('setupBaseUrl'));
    this.baseUrl.placeholder = azure ? 'https://NAME.openai.azure.com' : 'http://127.0.0.1:8000/v1';
    setShown(this.rows.apiVersion, azure);
    setShown(this.rows.key, Boolean(preset) && !lm);
    const keyStored = this.seenSetup?.keyStored === true && preset?.id === this.seenSetup.presetId;
    setText(this.labels.keyHint, this.keyRefused ? t('setupKeyRefused') : keyStored ? t('setupKeyStored') : preset?.needsKey ? t('setupKeyHint') : t('setupKeyOptional'));
    setText(this.labels.model, azure ? t('setupDeployment') : t('setupModel'));
    this.model.placeholder = t('setupModelName');
    this.model.setAttribute('aria-label', azure ? t('setupDeployment') : t('setupModel'));
    this.modelList.setAttribute('aria-label', t('setupPickModel'));
    setShown(this.model, !lm);
    setShown(this.refreshButton, preset?.modelList !== 'none');
    this.drawSummary();
  }

  private draft(): SetupDraft {
    const chosen = this.models.find((m) => m.id === this.model.value.trim());
    const key = this.key.value.trim();
    return {
      presetId: this.provider.value,
      baseUrl: this.baseUrl.value.trim(),
      model: this.model.value.trim(),
      ...(key ? { apiKey: key } : {}),
      ...(this.preset()?.provider === 'azure-openai' ? { apiVersion: this.apiVersion.value.trim() } : {}),
      ...(chosen?.contextWindow ? { contextWindow: chosen.contextWindow } : {}),
    };
  }

  private listModels(): void {
    const preset = this.preset();
    if (!preset) return;
    const t = this.state!.t;
    if (preset.provider === 'vscode-lm') {
      this.models = (this.seenSetup?.lmModels ?? []).map((m): SetupModel => (m.contextWindow ? { id: m.id, contextWindow: m.contextWindow, contextSource: 'vscode' } : { id: m.id }));
      this.drawModels();
      return;
    }
    if (preset.modelList === 'none') return;
    const keyKnown = Boolean(this.key.value.trim()) || (this.seenSetup?.keyStored === true && preset.id === this.seenSetup.presetId);
    if (preset.needsKey && !keyKnown) {
      setText(this.listNote, t('setupListNeedsKey'));
      return;
    }
    if (!this.baseUrl.value.trim()) {
      this.listAnswered = false;
      setText(this.listNote, '');
      return;
    }
    setText(this.listNote, t('setupLoading'));
    this.post({ type: 'setupListModels', requestId: ++this.listRequest, draft: this.draft() });
  }

  private test(): void {
    const t = this.state!.t;
    setText(this.result, t('setupTesting'));
    this.result.className = 'setup-result';
    this.post({ type: 'setupTest', requestId: ++this.testRequest, draft: this.draft() });
  }

  private save(): void {
    const t = this.state!.t;
    const draft = this.draft();
    const preset = this.preset();
    const keyKnown = Boolean(draft.apiKey) || (this.seenSetup?.keyStored === true && preset?.id === this.seenSetup.presetId);
    // The host checks again; saying it here keeps the user in the form with the words in their language.
    const problem = preset?.provider !== 'vscode-lm' && !draft.model ? t('setupNothingYet') : preset?.needsKey && !keyKnown ? t('setupError.no_key') : '';
    this.result.className = problem ? 'setup-result failed' : 'setup-result';
    setText(this.result, problem);
    if (problem) return;
    this.setOpen(true);
    this.post({ type: 'setupSave', draft });
  }

  private answer(reply: AppState['setupReply'], t: Translate): void {
    this.seenReply = reply;
    if (!reply) return;
    if (reply.type === 'setupModels') {
      if (reply.requestId !== this.listRequest) return;
      this.models = this.withLoaded(reply.models);
      this.listAnswered = !reply.error;
      this.noteKeyVerdict(reply.error?.code);
      this.drawModels();
      if (reply.error) setText(this.listNote, `${errorWords(t, reply.error.code) ?? t('setupError.other')} ${reply.error.message}`);
      return;
    }
    if (reply.requestId !== this.testRequest) return;
    // The window the server loaded the model with beats what its metadata says.
    if (reply.ok && reply.contextWindow) {
      this.loaded.set(reply.model, reply.contextWindow);
      this.models = this.withLoaded(this.models.some((m) => m.id === reply.model) ? this.models : [...this.models, { id: reply.model }]);
      this.drawModels();
    }
    this.noteKeyVerdict(reply.ok ? undefined : reply.code);
    this.result.className = `setup-result ${reply.ok ? 'ok' : 'failed'}`;
    // VS Code's models by the name the list shows, not by `vendor/id`.
    const lmName = this.preset()?.provider === 'vscode-lm' ? this.seenSetup?.lmModels.find((m) => reply.model.endsWith(`/${m.id}`))?.name : undefined;
    setText(this.result, reply.ok
      ? t('setupTestOk', lmName ?? reply.model, formatCount(Math.round(reply.latencyMs ?? 0), this.state!.lang))
      : `${errorWords(t, reply.code) ?? t('setupError.other')} ${reply.message}`);
  }

  /** Remembers whether the endpoint refused the key (401/403) and redraws the key's hint. */
  private noteKeyVerdict(code: string | undefined): void {
    const refused = code === 'auth';
    if (refused === this.keyRefused) return;
    this.keyRefused = refused;
    this.drawPreset();
  }

  private withLoaded(models: readonly SetupModel[]): SetupModel[] {
    return models.map((m) => {
      const window = this.loaded.get(m.id);
      return window ? { id: m.id, contextWindow: window, contextSource: 'loaded' } : m;
    });
  }

  private drawModels(): void {
    const t = this.state?.t;
    if (!t) return;
    const lang = this.state!.lang;
    const lmNames = new Map((this.seenSetup?.lmModels ?? []).map((m) => [m.id, m.name]));
    replaceChildren(this.modelList, h('option', { value: '' }, t('setupPickModel')),
      ...this.models.map((m) => h('option', { value: m.id }, [lmNames.get(m.id) ?? m.id, m.contextWindow ? ` · ${formatCount(m.contextWindow, lang)}` : ''].join(''))));
    const current = this.model.value.trim();
    this.modelList.value = this.models.some((m) => m.id === current) ? current : '';
    if (this.preset()?.provider === 'vscode-lm' && !this.modelList.value && this.models[0]) {
      this.modelList.value = this.models[0].id;
      this.model.value = this.models[0].id;
    }
    setShown(this.rows.modelList, this.models.length > 0);
    const lm = this.preset()?.provider === 'vscode-lm';
    const one = this.models.length === 1;
    const found = lm ? (one ? 'setupLmModelFound' : 'setupLmModelsFound') : one ? 'setupModelFound' : 'setupModelsFound';
    // "Lists no models" only once an endpoint answered with an empty list, never before a URL is typed.
    const none = this.preset()?.modelList !== 'none' && (lm || this.listAnswered) ? t('setupNoModels') : '';
    setText(this.listNote, this.models.length > 0 ? t(found, this.models.length) : none);
    this.drawSummary();
  }

  /** Says which endpoint and model a save would use, with the context window learned. */
  private drawSummary(): void {
    const t = this.state?.t;
    if (!t) return;
    const draft = this.draft();
    const preset = this.preset();
    const endpoint = preset?.editableUrl ? draft.baseUrl || preset.baseUrl : preset?.baseUrl ?? '';
    const chosen = this.models.find((m) => m.id === draft.model);
    const lines: string[] = [];
    if (!draft.model) lines.push(t('setupNothingYet'));
    else if (preset?.provider === 'vscode-lm') lines.push(t('setupWillUseLm', this.seenSetup?.lmModels.find((m) => m.id === draft.model)?.name ?? draft.model));
    else lines.push(t('setupWillUse', draft.model, endpoint || '…'));
    if (chosen?.contextWindow) lines.push(t('setupContext', formatCount(chosen.contextWindow, this.state!.lang), t(`setupContext.${chosen.contextSource ?? 'listing'}` as StringKey)));
    setText(this.summary, lines.join(' '));
  }
}

function setLabel(el: HTMLButtonElement, label: string): void {
  if (el.textContent !== label) el.textContent = label;
}
