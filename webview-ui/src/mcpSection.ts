import type { McpServerInfo, McpServerStatus, WebviewIntent } from '../../src/shared/webviewProtocol';
import { button, h, inlineCode, replaceChildren, setShown, setText } from './dom';
import type { AppState } from './store';
import type { Translate } from './strings';

/** Tool names shown per server before "and N more" (a server can expose hundreds). */
const MAX_TOOLS_LISTED = 200;

/** Worst first: the header's dot shows the most pressing state of any server. */
const SEVERITY: McpServerStatus[] = ['error', 'restarting', 'connecting', 'disabled', 'connected'];

/** The name a person knows a tool by: the model-facing `server__tool` without its server prefix. */
export function shortToolName(server: string, tool: string): string {
  const prefix = `${server.replace(/[^a-zA-Z0-9_-]/g, '_') || '_'}__`;
  return tool.startsWith(prefix) && tool.length > prefix.length ? tool.slice(prefix.length) : tool;
}

/** Whether the section starts open: when some server failed. */
export function mcpSectionAutoOpen(servers: readonly McpServerInfo[]): boolean {
  return servers.some((server) => server.status === 'error');
}

/**
 * The sidebar's "MCP Servers" section: at first collapsed to one summary line while all is well,
 * open when a server has failed; later it opens by itself whenever a server newly fails. Each server shows its state, tools (expandable), last error, and
 * Restart / Disable / Enable buttons that send intents (the host decides). In Restricted Mode it
 * says servers are off and offers no buttons.
 */
export class McpSection {
  readonly element: HTMLElement;
  private readonly toggle: HTMLButtonElement;
  private readonly title = h('span', { class: 'mcp-title' });
  private readonly summary = h('span', { class: 'mcp-summary', 'data-role': 'mcp-summary' });
  private readonly dot = h('span', { class: 'mcp-dot', 'aria-hidden': 'true' });
  private readonly body = h('div', { class: 'mcp-body', id: 'mcp-body', 'data-role': 'mcp-body' });
  /** Whether the list is expanded: first as `mcpSectionAutoOpen` says, then as the user leaves it, until another server fails. */
  private open = false;
  /** The host has reported servers at least once (the first report picks the initial state). */
  private reported = false;
  /** Servers in `error` at the last report: a server newly failing opens the section again. */
  private failed = new Set<string>();
  /** Servers with a request in flight: their buttons stay disabled until the host reports again. */
  private readonly pending = new Set<string>();
  /** Servers whose tool list the user opened (kept across redraws). */
  private readonly toolsOpen = new Set<string>();
  private drawn: { servers: readonly McpServerInfo[] | undefined; restricted: boolean; t: Translate } | undefined;

  constructor(private readonly post: (intent: WebviewIntent) => boolean) {
    this.toggle = h('button', { type: 'button', class: 'mcp-toggle', 'aria-expanded': 'false', 'aria-controls': 'mcp-body', 'data-action': 'mcp-toggle' },
      h('span', { class: 'chevron', 'aria-hidden': 'true' }), this.title, h('span', { class: 'mcp-overall' }, this.dot, this.summary));
    this.toggle.addEventListener('click', () => {
      this.open = !this.open;
      this.applyOpen();
    });
    this.element = h('section', { class: 'mcp', 'data-role': 'mcp' }, this.toggle, this.body);
  }

  /** Whether the server list is expanded. */
  isOpen(): boolean {
    return this.open;
  }

  /** Draws the section for `state`; redraws the list only when servers, trust or language changed. */
  render(state: AppState): void {
    const restricted = state.statusKnown && !state.status.trusted;
    const servers = state.mcp;
    setShown(this.element, servers !== undefined || restricted);
    if (this.drawn && this.drawn.servers === servers && this.drawn.restricted === restricted && this.drawn.t === state.t) return;
    if (this.drawn?.servers !== servers) this.pending.clear();
    this.drawn = { servers, restricted, t: state.t };
    const list = servers ?? [];
    const failed = new Set(list.filter((s) => s.status === 'error').map((s) => s.name));
    // Never folds by itself while the user may be working in it; unfolds when something new breaks.
    if (!this.reported && servers !== undefined) this.open = mcpSectionAutoOpen(list);
    else if ([...failed].some((name) => !this.failed.has(name))) this.open = true;
    this.reported ||= servers !== undefined;
    this.failed = failed;
    this.drawHeader(list, restricted, state.t);
    this.drawBody(list, restricted, state.t);
    this.applyOpen();
  }

  private applyOpen(): void {
    const open = this.isOpen();
    this.toggle.setAttribute('aria-expanded', String(open));
    this.element.classList.toggle('open', open);
    setShown(this.body, open);
  }

  private drawHeader(servers: readonly McpServerInfo[], restricted: boolean, t: Translate): void {
    setText(this.title, t('mcpTitle'));
    const connected = servers.filter((s) => s.status === 'connected').length;
    const failed = servers.filter((s) => s.status === 'error').length;
    let summary: string;
    if (restricted) summary = t('mcpSummaryOff');
    else if (servers.length === 0) summary = t('mcpSummaryNone');
    else summary = [t('mcpSummary', connected, servers.length), failed > 0 ? t('mcpSummaryFailed', failed) : ''].filter(Boolean).join(' · ');
    setText(this.summary, summary);
    const worst = restricted ? 'disabled' : SEVERITY.find((status) => servers.some((s) => s.status === status));
    this.dot.className = `mcp-dot${worst ? ` mcp-status-${worst}` : ''}`;
    setShown(this.dot, worst !== undefined);
  }

  private drawBody(servers: readonly McpServerInfo[], restricted: boolean, t: Translate): void {
    const parts: HTMLElement[] = [];
    if (restricted) parts.push(h('div', { class: 'mcp-note mcp-restricted', role: 'note' }, t('mcpRestricted')));
    if (servers.length === 0) {
      if (!restricted) {
        parts.push(h('div', { class: 'mcp-empty', 'data-role': 'mcp-empty' },
          h('div', { class: 'mcp-empty-title' }, t('mcpEmpty')), h('div', { class: 'mcp-hint' }, inlineCode(t('mcpEmptyHint')))));
      }
    } else {
      const list = h('ul', { class: 'mcp-servers' });
      for (const server of servers) list.appendChild(this.serverRow(server, restricted, t));
      parts.push(list);
    }
    replaceChildren(this.body, ...parts);
  }

  private serverRow(server: McpServerInfo, restricted: boolean, t: Translate): HTMLElement {
    const busy = this.pending.has(server.name);
    const actions = h('span', { class: 'mcp-actions' });
    if (!restricted) {
      const send = (intent: WebviewIntent) => {
        if (this.pending.has(server.name) || !this.post(intent)) return;
        this.pending.add(server.name);
        for (const b of Array.from(actions.querySelectorAll('button'))) b.disabled = true;
      };
      if (server.status === 'disabled') {
        actions.appendChild(button(t('mcpEnable'), () => send({ type: 'mcpSetEnabled', name: server.name, enabled: true }),
          { action: 'mcp-enable', title: t('mcpEnableTitle', server.name) }));
      } else {
        const restart = button(t('mcpRestart'), () => send({ type: 'mcpRestart', name: server.name }), { action: 'mcp-restart', title: t('mcpRestartTitle', server.name) });
        restart.disabled = server.status === 'connecting' || server.status === 'restarting';
        actions.append(restart, button(t('mcpDisable'), () => send({ type: 'mcpSetEnabled', name: server.name, enabled: false }),
          { action: 'mcp-disable', title: t('mcpDisableTitle', server.name) }));
      }
      if (busy) for (const b of Array.from(actions.querySelectorAll('button'))) b.disabled = true;
    }
    const row = h('li', { class: ['mcp-server', `mcp-status-${server.status}`], 'data-server': server.name, 'data-status': server.status },
      h('div', { class: 'mcp-line' },
        h('span', { class: 'mcp-dot', 'aria-hidden': 'true' }),
        h('span', { class: 'mcp-name', title: server.name }, server.name),
        h('span', { class: 'mcp-state', 'data-role': 'mcp-state' }, t(`mcp.${server.status}`)),
        actions),
      this.toolsView(server, t));
    if (server.lastError) {
      row.appendChild(h('div', { class: ['mcp-error', server.status === 'error' && 'current'], 'data-role': 'mcp-error' },
        h('span', { class: 'mcp-error-label' }, t('mcpLastError')), h('span', { class: 'mcp-error-text' }, clipError(server.lastError))));
    }
    const where = [server.transport, server.source ? t('mcpSource', server.source) : undefined].filter(Boolean).join(' · ');
    if (where) row.appendChild(h('div', { class: 'mcp-where' }, where));
    return row;
  }

  private toolsView(server: McpServerInfo, t: Translate): HTMLElement {
    const count = server.tools.length;
    if (count === 0) return h('div', { class: 'mcp-tools mcp-no-tools muted' }, t('mcpNoTools'));
    const details = h('details', { class: 'mcp-tools', 'data-role': 'mcp-tools' }, h('summary', {}, count === 1 ? t('mcpToolOne') : t('mcpToolCount', count)));
    const list = h('ul', { class: 'mcp-tool-list' });
    for (const tool of server.tools.slice(0, MAX_TOOLS_LISTED)) list.appendChild(h('li', {}, h('code', { title: tool }, shortToolName(server.name, tool))));
    if (count > MAX_TOOLS_LISTED) list.appendChild(h('li', { class: 'muted' }, `+${count - MAX_TOOLS_LISTED}`));
    details.appendChild(list);
    details.open = this.toolsOpen.has(server.name);
    details.addEventListener('toggle', () => {
      if (details.open) this.toolsOpen.add(server.name);
      else this.toolsOpen.delete(server.name);
    });
    return details;
  }
}

/** The last lines of an error (stderr tails can be long); the full text stays in the host's log. */
function clipError(text: string): string {
  const trimmed = text.trim();
  return trimmed.length <= 1_200 ? trimmed : `…${trimmed.slice(trimmed.length - 1_200)}`;
}
