import type { AgentEvent } from '../../shared/events';

const WRITE_TOOLS = new Set(['write_file', 'edit_file']);
const IMAGE_PATH = /[\w./-]*[\w-]\.(?:png|svg|jpe?g|gif|webp)\b/gi;

/** True for paths the report embeds as images. */
export function isImagePath(path: string): boolean {
  return /\.(?:png|svg|jpe?g|gif|webp)$/i.test(path);
}

/**
 * Follows tool calls and results to learn which files a task changed: successful `write_file` and
 * `edit_file` calls, image files that commands and `python_execute` mention (charts saved), which the
 * report checks exist before embedding, and the web pages read (the report's sources).
 */
export class ChangeTracker {
  private readonly pending = new Map<string, { name: string; args: unknown }>();
  private readonly changed: string[] = [];
  private readonly mentionedImages = new Set<string>();
  private readonly webSources: string[] = [];
  private readonly dataTables: string[] = [];

  constructor(initial: readonly string[] = []) {
    this.changed.push(...initial);
  }

  /** Feeds one event of the stream. */
  observe(event: AgentEvent): void {
    if (event.type === 'tool_call') {
      this.pending.set(event.callId, { name: event.name, args: event.args });
      if (event.name === 'run_command') this.mention(JSON.stringify(event.args ?? ''));
      return;
    }
    if (event.type !== 'tool_result') return;
    const call = this.pending.get(event.callId);
    this.pending.delete(event.callId);
    // Charts a script or python_execute's save_chart wrote are named in the output.
    if (event.name === 'run_command' || event.name === 'python_execute') this.mention(event.content);
    if (!event.isError) this.source(event.name, call?.args);
    if (!event.isError && event.name === 'python_execute') this.collectTables(event.content);
    if (event.isError || !WRITE_TOOLS.has(event.name)) return;
    const path = pathOf(call?.args);
    if (path && !this.changed.includes(path)) this.changed.push(path);
  }

  /** Paths written or edited, in the order first changed, as the model gave them. */
  files(): string[] {
    return [...this.changed];
  }

  /** URLs the task read successfully (web_fetch, browser navigate), in order, for the report's sources. */
  sources(): string[] {
    return [...this.webSources];
  }

  private source(tool: string, args: unknown): void {
    if (typeof args !== 'object' || args === null) return;
    const a = args as Record<string, unknown>;
    const url = tool === 'web_fetch' || (tool === 'browser' && a.action === 'navigate') ? a.url : undefined;
    if (typeof url === 'string' && /^https?:\/\//i.test(url) && !this.webSources.includes(url)) this.webSources.push(url);
  }

  /** Markdown tables `python_execute` printed (`show_table`), in order, at most `MAX_TABLES`, for the report. */
  tables(): string[] {
    return [...this.dataTables];
  }

  private collectTables(text: string): void {
    for (const table of markdownTables(text)) {
      if (this.dataTables.length >= MAX_TABLES) return;
      if (!this.dataTables.includes(table)) this.dataTables.push(table);
    }
  }

  /** Image paths that commands mentioned (may not exist). */
  imageMentions(): string[] {
    return [...this.mentionedImages];
  }

  private mention(text: string): void {
    for (const match of text.matchAll(IMAGE_PATH)) this.mentionedImages.add(match[0]);
  }
}

/** Tables a report carries at most (each is `show_table`'s first rows). */
const MAX_TABLES = 6;
/** Rows kept of one table (header and separator included). */
const MAX_TABLE_LINES = 24;
const TABLE_SEPARATOR = /^\|(?:\s*:?-+:?\s*\|)+\s*$/;

/** The markdown tables in a text: a `|` header line, a `|---|` separator, its `|` rows, and a `(first n of m rows)` note. */
export function markdownTables(text: string): string[] {
  const lines = text.split('\n');
  const tables: string[] = [];
  for (let i = 0; i + 1 < lines.length; i++) {
    if (!lines[i]!.startsWith('|') || !TABLE_SEPARATOR.test(lines[i + 1]!)) continue;
    let end = i + 2;
    while (end < lines.length && lines[end]!.startsWith('|')) end++;
    const rows = lines.slice(i, Math.min(end, i + MAX_TABLE_LINES));
    if (end < lines.length && /^\(first \d+ of \d+ rows\)$/.test(lines[end]!)) rows.push('', lines[end]!);
    tables.push(rows.join('\n'));
    i = end - 1;
  }
  return tables;
}

function pathOf(args: unknown): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const path = (args as Record<string, unknown>).path;
  return typeof path === 'string' && path.trim() ? path.trim() : undefined;
}
