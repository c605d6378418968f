import { nestRow } from './delegateNesting';
import type { WebviewIntent, WebviewKind } from '../../src/shared/webviewProtocol';
import { canRetryStep } from '../../src/shared/vocabulary';
import { blockLines } from './blockLines';
import { button, clip, h, inlineCode, replaceChildren, setText, truncate, type Child } from './dom';
import { commandControls } from './commandControls';
import { outcomeCard } from './outcomeCard';
import { durationWords } from './durations';
import { icon, stepIcon, toolIcon } from './icons';
import { stepBudgetView } from './stepBudgetView';
import { markFileRef, parseFileRef, renderMarkdown } from './markdown';
import { resolveImageTarget } from './workspaceImage';
import { errorWords, type Translate } from './strings';
import { planChangeWords } from './planChangeWords';
import type { CompactionItem, Item, ReportItem, TaskItem, ToolCard } from './viewModel';
import type { RowRenderer } from './virtualList';

/** What row renderers need from the app. */
export interface ItemContext {
  view: WebviewKind;
  t: () => Translate;
  post: (intent: WebviewIntent) => void;
  runId: () => string | undefined;
  /** The workspace folder as a webview URI (`status.workspaceUri`): reports load their images from under it. */
  workspaceUri: () => string | undefined;
}

/** Longest argument value shown in full inside a tool card. */
const ARG_SHOW_CHARS = 4_000;

const markdownCache = new WeakMap<object, string>();

/** Sanitised HTML of an item's markdown, computed once per item object (rows re-enter the window often). */
function markdownOf(key: object, text: string): string {
  let html = markdownCache.get(key);
  if (html === undefined) {
    html = renderMarkdown(text);
    markdownCache.set(key, html);
  }
  return html;
}

const reportCache = new WeakMap<object, { workspaceUri: string | undefined; html: string }>();

/** Sanitised HTML of a report, with its workspace images inline; recomputed when the workspace URI changes. */
function reportHtml(item: ReportItem, workspaceUri: string | undefined): string {
  const cached = reportCache.get(item);
  if (cached && cached.workspaceUri === workspaceUri) return cached.html;
  const html = renderMarkdown(item.markdown, { documentPath: item.path, workspaceUri });
  reportCache.set(item, { workspaceUri, html });
  return html;
}

function markdownBlock(key: object, text: string, className = ''): HTMLElement {
  const el = h('div', { class: ['markdown', className] });
  el.innerHTML = markdownOf(key, text);
  return el;
}

/** Renders timeline rows; tool cards are patched in place, other rows are small enough to rebuild. */
// eslint-disable-next-line max-lines-per-function -- one renderer per item kind in a single exhaustive switch; the view model is the contract
export function createItemRenderer(ctx: ItemContext): RowRenderer<Item> {
  /** Cards the user opened or closed by hand; everything else follows the default for its view and status. */
  const toggled = new Map<string, boolean>();
  /** The open state we last set on a card programmatically, until its `toggle` event has been seen. */
  const autoOpen = new WeakMap<HTMLDetailsElement, boolean>();
  /** The card object each rendered `<details>` currently shows. */
  const cards = new WeakMap<HTMLElement, ToolCard>();
  const renderer: RowRenderer<Item> = {
    create: (item) => nestRow(createRow(item), item),
    update(element, item, previous) {
      if (item.kind === 'tool' && previous.kind === 'tool') {
        patchTool(element, item, previous);
        return nestRow(element, item);
      }
      if (item.kind === 'text' && previous.kind === 'text') {
        const body = element.querySelector('.markdown');
        if (body) body.innerHTML = markdownOf(item, item.text);
        element.classList.toggle('streaming', item.streaming);
        return nestRow(element, item);
      }
      return nestRow(createRow(item), item);
    },
    estimate(item) {
      switch (item.kind) {
        case 'turn': case 'planNote': case 'notice': return 28;
        case 'tool': return 36;
        case 'text': return 24 + Math.ceil(item.text.length / 60) * 20;
        case 'step': return 40;
        default: return 64;
      }
    },
  };

  function createRow(item: Item): HTMLElement {
    const t = ctx.t();
    switch (item.kind) {
      case 'task':
        return h('div', { class: 'card task' }, h('div', { class: 'who' }, t('you')), h('div', { class: 'task-text' }, item.text), taskImages(item));
      case 'message':
        return h('div', { class: 'card task message', 'data-delivered': item.delivered }, h('div', { class: 'who' }, t(item.delivered === 'plan' ? 'messageToPlan' : 'messageDelivered')), h('div', { class: 'task-text' }, item.text));
      case 'turn':
        return h('div', { class: 'divider turn' }, h('span', {}, t('turn', item.turn, item.maxTurns)));
      case 'text': {
        const el = h('div', { class: ['card', 'text', item.streaming && 'streaming'] });
        // Reasoning is there to look into, not to read by default: collapsed above the answer.
        if (item.thinking) el.appendChild(h('details', { class: 'thinking' }, h('summary', {}, t('thinking')), h('div', { class: 'thinking-text' }, item.thinking)));
        if (item.text.trim() !== '') el.appendChild(markdownBlock(item, item.text));
        return el;
      }
      case 'tool':
        return createTool(item);
      case 'approval': {
        const label = item.state === 'pending' ? t('approvalNeeded') : item.state === 'approved' ? t('approved')
          : item.state === 'rejected' ? (item.reason ? t('rejectedWithReason', item.reason) : t('rejected')) : t('expired');
        return h('div', { class: ['line', 'approval', `approval-${item.state}`] },
          icon('shield'), h('span', { class: 'line-text' }, h('span', { class: 'line-label' }, label), inlineCode(clip(item.title, 200))));
      }
      case 'question': {
        const el = h('div', { class: ['card', 'question', `question-${item.state}`] },
          h('div', { class: 'card-title' }, icon('question'), t('question')), markdownBlock(item, item.question));
        if (item.state === 'answered' && item.answer !== undefined) el.appendChild(h('div', { class: 'muted' }, t('answered', item.answer)));
        if (item.state === 'expired') el.appendChild(h('div', { class: 'muted' }, t('expired')));
        return el;
      }
      case 'notice':
        return h('div', { class: ['line', 'notice', `notice-${item.level}`] }, icon(item.level === 'warning' ? 'warning' : 'info'), h('span', { class: 'line-text' }, item.message));
      case 'error':
        return h('div', { class: 'card error', role: 'alert' }, h('div', { class: 'card-title' }, icon('cross'), errorWords(t, item.code) ?? t('error')), h('div', { class: 'error-text' }, item.message));
      case 'planNote':
        return h('div', { class: 'divider plan-note' }, h('span', {}, item.created ? t('planCreated', clip(item.text, 160), item.stepCount) : planChangeWords(t, item)));
      case 'step': {
        const el = h('div', { class: ['step-header', `step-${item.status}`], 'data-step-id': item.stepId },
          stepIcon(item.status), h('span', { class: 'step-title' }, t('stepHeader', item.index + 1, item.title)),
          h('span', { class: ['badge', `badge-${item.status}`] }, t(`step.${item.status}`)));
        if (canRetryStep(item.status)) el.appendChild(button(t('retry'), () => ctx.post({ type: 'retryStep', stepId: item.stepId }), { icon: icon('retry'), action: 'retry' }));
        // Checkpoint actions get their own row: in the header they would push the step's title out.
        const runId = ctx.runId();
        const checkpointId = item.checkpointId;
        const actions = runId && checkpointId && ctx.view === 'panel'
          ? h('div', { class: 'buttons step-actions' },
            button(t('showChanges'), () => ctx.post({ type: 'showChanges', runId, checkpointId }), { kind: 'secondary', action: 'show-changes' }),
            button(t('restoreBeforeStep'), () => ctx.post({ type: 'restoreCheckpoint', runId, checkpointId }), { kind: 'secondary', action: 'restore' }))
          : null;
        const budget = stepBudgetView(item, t);
        if (!item.summary && !actions && !budget) return el;
        // A step its budget stopped says so in plain words above; the core's note (with the agent's last words) folds away.
        const summary = item.summary ? markdownBlock(item, item.summary, 'step-summary') : null;
        const note = summary && item.spend?.reached ? h('details', { class: 'step-why' }, h('summary', {}, t('stepBudgetDetails')), summary) : summary;
        return h('div', { class: 'step-block' }, el, budget, note, actions);
      }
      case 'outcome':
        return outcomeCard(item, ctx, item.summary ? markdownBlock(item, item.summary) : null);
      case 'compaction':
        return compactionRow(item);
      case 'report': {
        const title = h('div', { class: 'card-title' }, t('report'));
        if (item.path) {
          // The file name only: a report's folder (`.stepwise/reports/`) would crowd the sidebar; the tooltip has the path.
          const link = h('span', { class: 'report-path', title: item.path }, t('openReport', item.path.split(/[\\/]/).pop() || item.path));
          markFileRef(link, { path: item.path });
          title.appendChild(link);
        }
        const body = h('div', { class: 'markdown' });
        body.innerHTML = reportHtml(item, ctx.workspaceUri());
        return h('div', { class: 'card report' }, title, body);
      }
    }
  }

  function compactionRow(item: CompactionItem): HTMLElement {
    const t = ctx.t();
    const text = item.state === 'running' ? t('compactionRunning', item.messages)
      : item.state === 'undone' ? t('compactionUndone') : t('compactionDone', item.messages, item.tokensBefore ?? 0, item.tokensAfter ?? 0);
    const line = h('div', { class: ['line', 'notice', 'compaction', `compaction-${item.state}`], 'data-compaction-id': item.compactionId },
      icon('info'), h('span', { class: 'line-text' }, text));
    if (item.state === 'done') line.appendChild(button(t('undoCompaction'), () => ctx.post({ type: 'undoCompaction', id: item.compactionId }), { kind: 'secondary', action: 'undo-compaction' }));
    if (!item.summary) return line;
    const details = h('details', { class: 'compaction-summary' }, h('summary', {}, t('compactionSummary')), h('pre', { class: 'result' }, item.summary));
    return h('div', { class: 'compaction-block' }, line, details);
  }

  function isOpen(card: ToolCard): boolean {
    const manual = toggled.get(card.id);
    if (manual !== undefined) return manual;
    // The panel shows what needs the user, and the images a tool produced (screenshots), open.
    return ctx.view === 'panel' && (card.status === 'running' || card.status === 'awaiting_approval' || Boolean(card.images?.length));
  }

  function createTool(card: ToolCard): HTMLElement {
    const details = h('details', { class: ['card', 'tool', `tool-${card.status}`], 'data-call-id': card.callId });
    const summary = h('summary', {});
    details.appendChild(summary);
    fillSummary(summary, card);
    cards.set(details, card);
    setOpenAuto(details, isOpen(card));
    details.addEventListener('toggle', () => {
      // `toggle` also fires for opens we made ourselves; only a change we did not make is the user's choice.
      const auto = autoOpen.get(details);
      autoOpen.delete(details);
      if (auto !== details.open) toggled.set(card.id, details.open);
      const current = cards.get(details) ?? card;
      if (details.open && !details.querySelector('.tool-body')) details.appendChild(toolBody(current));
      if (!details.open) details.querySelector('.tool-body')?.remove();
    });
    return details;
  }

  function setOpenAuto(details: HTMLDetailsElement, open: boolean): void {
    if (details.open === open) return;
    autoOpen.set(details, open);
    details.open = open;
    if (open && !details.querySelector('.tool-body')) details.appendChild(toolBody(cards.get(details)!));
  }

  function fillSummary(summary: HTMLElement, card: ToolCard): void {
    const t = ctx.t();
    const brief = toolBrief(t, card);
    replaceChildren(summary, toolIcon(card.status), h('span', { class: 'tool-name' }, card.name),
      brief ? h('span', { class: 'tool-brief' }, clip(brief, 80)) : null,
      h('span', { class: ['badge', `badge-tool-${card.status}`] }, statusLabel(card)),
      card.pinned ? h('span', { class: 'badge badge-pinned', 'data-role': 'pinned', title: t('pinned') }, icon('pin')) : null,
      card.durationMs !== undefined ? h('span', { class: 'duration' }, durationWords(t, card.durationMs, card.waitedMs)) : null);
  }

  function patchTool(element: HTMLElement, card: ToolCard, previous: ToolCard): void {
    const details = element as HTMLDetailsElement;
    cards.set(details, card);
    if (card.pinned !== previous.pinned) {
      fillSummary(details.querySelector('summary')!, card);
      details.querySelector('.tool-body')?.replaceWith(toolBody(card));
    }
    if (card.status !== previous.status || card.durationMs !== previous.durationMs) {
      details.className = '';
      details.classList.add('card', 'tool', `tool-${card.status}`);
      fillSummary(details.querySelector('summary')!, card);
      setOpenAuto(details, isOpen(card));
      // A command's Stop / Background buttons come with "running" and go with it.
      if (card.name === 'run_command') details.querySelector('.tool-body')?.replaceWith(toolBody(card));
    }
    const body = details.querySelector<HTMLElement>('.tool-body');
    if (!body) {
      if (details.open) details.appendChild(toolBody(card));
      return;
    }
    if (card.output !== previous.output || card.outputOmitted !== previous.outputOmitted) {
      const pre = body.querySelector<HTMLElement>('pre.output');
      if (pre) {
        const stick = pre.scrollTop + pre.clientHeight >= pre.scrollHeight - 8;
        setText(pre, outputText(card));
        if (stick) pre.scrollTop = pre.scrollHeight;
      } else {
        body.replaceWith(toolBody(card));
        return;
      }
    }
    if (card.result !== previous.result || card.isError !== previous.isError || card.checkpointId !== previous.checkpointId) body.replaceWith(toolBody(card));
  }

  /** A command's badge names its exit code ("Exit 1"); a signal kill says so; other tools show their status word. */
  function statusLabel(card: ToolCard): string {
    const t = ctx.t();
    if (card.status === 'failed') return card.exitCode === null ? t('tool.killed') : t('tool.exit', card.exitCode ?? '?');
    if (card.status === 'done' && card.exitCode === 0) return t('tool.exit', 0);
    if (card.status === 'ended') return card.exitCode === null || card.exitCode === undefined ? t('tool.killed') : t('tool.ended', card.exitCode);
    return t(`tool.${card.status}`);
  }

  /** A background command's later ending in words: its result still tells of the moment it went there. */
  function laterEnding(card: ToolCard, t: Translate): string {
    if (card.laterEnding === 'stopped') return t('tool.laterStopped');
    return card.exitCode === null || card.exitCode === undefined ? t('tool.laterKilled') : t('tool.laterExited', card.exitCode);
  }

  function outputText(card: ToolCard): string {
    return card.outputOmitted > 0 ? `${ctx.t()('omittedOutput', card.outputOmitted)}\n${card.output}` : card.output;
  }

  function toolBody(card: ToolCard): HTMLElement {
    const t = ctx.t();
    const body = h('div', { class: 'tool-body' });
    if (card.args !== undefined) body.append(h('div', { class: 'section-label' }, t('toolArgs')), card.name === 'edit_file' ? editArgsView(card.args) : argsView(card.args));
    if (card.name === 'run_command' && card.status === 'running') body.append(commandControls(card.callId, t, ctx.post));
    // A finished command's result already holds its output (head and tail): one output section, not two.
    const resultHasOutput = card.result !== undefined && card.exitCode !== undefined;
    if (!resultHasOutput && (card.output !== '' || card.outputOmitted > 0)) body.append(h('div', { class: 'section-label' }, t('toolOutput')), h('pre', { class: 'output' }, outputText(card)));
    if (card.laterEnding) body.append(h('p', { class: 'later-ending', 'data-role': 'later-ending' }, laterEnding(card, t)));
    if (card.result !== undefined) {
      body.append(h('div', { class: 'section-label' }, t('toolResult'),
        card.resultOmitted > 0 ? h('span', { class: 'muted' }, ` ${t('omittedResult', card.resultOmitted)}`) : null),
      h('pre', { class: ['result', card.isError && card.status !== 'stopped' && 'is-error'] }, card.result));
      // A finished result can be pinned so it survives eliding and compaction.
      body.append(h('div', { class: 'buttons' }, button(card.pinned ? t('unpin') : t('pin'),
        () => ctx.post({ type: 'pinContext', callId: card.callId, pinned: !card.pinned }), { kind: 'secondary', icon: icon('pin'), action: card.pinned ? 'unpin' : 'pin' })));
    }
    for (const path of card.images ?? []) body.append(toolImage(path));
    const runId = ctx.runId();
    if (runId && card.checkpointId && ctx.view === 'panel') {
      const checkpointId = card.checkpointId;
      body.append(h('div', { class: 'buttons' },
        button(t('showChanges'), () => ctx.post({ type: 'showChanges', runId, checkpointId }), { kind: 'secondary', action: 'show-changes' }),
        button(t('restoreBeforeCall'), () => ctx.post({ type: 'restoreCheckpoint', runId, checkpointId }), { kind: 'secondary', action: 'restore' })));
    }
    return body;
  }

  /** The images attached to a task (thumbnails when saved in the workspace) and what the model was told of them. */
  function taskImages(item: TaskItem): HTMLElement | null {
    if (!item.images?.length) return null;
    const t = ctx.t();
    const thumbs = item.images.map((image) => {
      const target = image.path ? resolveImageTarget(image.path, { workspaceUri: ctx.workspaceUri() }) : undefined;
      return target?.kind === 'image' ? h('img', { class: 'attachment-thumb', src: target.url, alt: image.name, title: image.name }) : h('span', { class: 'badge' }, image.name);
    });
    const said = item.imagesReader ? t('imagesReadBy', item.imagesReader) : t('imagesNotRead');
    return h('div', { class: 'task-images' }, h('div', { class: 'attachment-list' }, ...thumbs),
      h('details', {}, h('summary', { class: 'muted' }, said), h('pre', { class: 'images-section' }, item.imagesSection ?? '')));
  }

  /** A saved tool image shown inline when it is a workspace image the CSP lets load; else its path. */
  function toolImage(path: string): HTMLElement {
    const target = resolveImageTarget(path, { workspaceUri: ctx.workspaceUri() });
    if (target.kind === 'image') return h('img', { class: 'tool-image', src: target.url, alt: path, title: path });
    return h('div', { class: 'muted' }, path);
  }

  return renderer;
}

/** The argument a person would recognise the call by: a path, command, pattern or query. */
/** A tool card's one-line brief: its main argument; for `read_output` "more of run_command npm test · from line 41" rather than a call id. */
export function toolBrief(t: Translate, card: Pick<ToolCard, 'args' | 'readsFrom'>): string | undefined {
  if (!card.readsFrom) return briefOf(card.args);
  const source = `${card.readsFrom.name} ${briefOf(card.readsFrom.args) ?? ''}`.trim();
  const start = (card.args as { start_line?: unknown } | undefined)?.start_line;
  return typeof start === 'number' ? `${t('tool.moreOf', source)} · ${t('tool.fromLine', start)}` : t('tool.moreOf', source);
}

/** The main argument of a tool call (path, command, pattern, …), else its first string argument. */
export function briefOf(args: unknown): string | undefined {
  if (typeof args === 'string') return args;
  if (!args || typeof args !== 'object') return undefined;
  const record = args as Record<string, unknown>;
  for (const key of ['path', 'file', 'filePath', 'command', 'pattern', 'query', 'url', 'question']) {
    if (typeof record[key] === 'string') return record[key];
  }
  const first = Object.values(record).find((v) => typeof v === 'string');
  return typeof first === 'string' ? first : undefined;
}

/** An `edit_file` call as what it does: the file, then each search/replace block as removed and added lines. */
function editArgsView(args: unknown): HTMLElement {
  const { path, edits } = (args ?? {}) as { path?: unknown; edits?: unknown };
  const blocks = Array.isArray(edits) ? edits.filter((e): e is { search: string; replace: string } => typeof e?.search === 'string' && typeof e?.replace === 'string') : [];
  if (typeof path !== 'string' || !blocks.length) return argsView(args);
  const file = h('div', { class: 'arg' }, h('span', { class: 'arg-key' }, 'path'), h('span', { class: 'arg-value' }, path));
  markFileRef(file.lastChild as HTMLElement, { path });
  const hunks = blocks.map((block) => h('pre', { class: 'diff' }, ...blockLines(truncate(block.search, ARG_SHOW_CHARS), truncate(block.replace, ARG_SHOW_CHARS))));
  return h('div', { class: 'args' }, file, ...hunks);
}

function argsView(args: unknown): HTMLElement {
  if (!args || typeof args !== 'object' || Array.isArray(args)) return h('pre', { class: 'args' }, truncate(stringify(args), ARG_SHOW_CHARS));
  const rows: Child[] = [];
  for (const [key, value] of Object.entries(args as Record<string, unknown>)) {
    let valueEl: HTMLElement;
    if (typeof value === 'string') {
      const ref = /path|file|dir|target/i.test(key) ? parseFileRef(value) : undefined;
      valueEl = h(value.includes('\n') ? 'pre' : 'span', { class: 'arg-value' }, truncate(value, ARG_SHOW_CHARS));
      if (ref) markFileRef(valueEl, ref);
    } else {
      valueEl = h('pre', { class: 'arg-value' }, truncate(stringify(value), ARG_SHOW_CHARS));
    }
    rows.push(h('div', { class: 'arg' }, h('span', { class: 'arg-key' }, key), valueEl));
  }
  return h('div', { class: 'args' }, ...rows);
}

function stringify(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
