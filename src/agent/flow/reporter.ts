import { z } from 'zod';
import type { RunOutcome } from '../../shared/events';
import { isDone } from '../../shared/plan';
import { errorMessage, isCancellation } from '../errors';
import { ModelError } from '../model/modelErrors';
import { isImagePath } from './changeTracker';
import { flowUsage, type FlowContext } from './flowContext';
import type { FlowState } from './flowState';
import { languageInstruction, reportStrings, type ReportStrings } from './language';
import { modelFor } from './modelTiers';
import { renderPlan } from './planContext';
import { DEFAULT_REPORT_DIR, markdownHref, relativePath, slugify, timestamp } from './reportPath';
import type { ReportSink } from './reportSink';
import { structuredCall } from './structuredCall';
import { claimNote, claimsPass, correctionRequest, reportFiles, verificationLines, type ChangedPath } from './reportEvidence';

/** The report's free text, written by the model; files, images and steps are filled in by code. */
export const ReportDraft = z.object({
  summary: z.string().min(1),
  findings: z.array(z.string()),
  verification: z.string(),
  left: z.array(z.string()),
});
export type ReportDraft = z.infer<typeof ReportDraft>;

const REPORT_PROMPT = [
  'Write the final report of a task from its plan and the summaries of its steps. Call `write_report`:',
  '- summary: 2-5 sentences on what was achieved;',
  '- findings: the key facts found, one per item;',
  '- verification: leave empty (Stepwise lists the checks that ran, with their exit codes);',
  'Say that tests or checks pass only when the checks listed after the last change show it.',
  '- left: what remains undone or should be done next; empty if nothing.',
  'Changed files and the web sources read are listed automatically; do not list them, but name the source of each fact found on the web.',
].join('\n');

/** How the task ended, as the report tells it. */
export interface Ending {
  outcome: RunOutcome;
  reason?: string;
}

/** The report as saved and emitted. */
export interface WrittenReport {
  markdown: string;
  /** Workspace-relative path, absent when saving failed (the `report` event still carries the text). */
  path?: string;
  summary: string;
}

/**
 * Writes the final report: one model call (basic tier) for the prose, or a report assembled from the
 * step summaries when the task ran out of budget or the call fails. Files changed are linked
 * relative to the report, images embedded; headings are in the user's language. Saved under
 * `reportDir` via the Workspace (or through `reportSink`, outside it) and emitted as a `report` event.
 */
export async function writeReport(ctx: FlowContext, state: FlowState, ending: Ending): Promise<WrittenReport> {
  const o = ctx.options;
  const strings = reportStrings(ctx.language);
  const changed = await reportFiles(ctx);
  const files = changed.filter((c) => !c.deleted).map((c) => c.path);
  const images = await existingImages(ctx, files, ctx.tracker.imageMentions());
  const drafted = (await draftReport(ctx, state, ending, files)) ?? fallbackDraft(state, strings);
  // The verification section is facts (checks after the last change, exit codes), never the model's prose;
  // the prose is kept byte for byte, with a note beside any claim the evidence contradicts.
  const draft = { ...drafted, verification: verificationLines(ctx.guards.evidence) ?? '' };
  const notes = claimNotes(ctx, state, draft, strings);
  // Secrets out, web sources cited.
  const render = (folder: string) =>
    o.events.redactText(withSources(withTables(renderReport(state, ending, draft, changed, images, folder, strings, notes), ctx.tracker.tables(), strings), ctx.tracker.sources(), strings));
  const fileName = `${timestamp(o.clock.now())}-${slugify(state.plan.goal)}.md`;
  if (o.reportSink) return saveToSink(o.reportSink, ctx, render(''), fileName, draft.summary);
  const dir = (o.reportDir ?? DEFAULT_REPORT_DIR).replace(/\/+$/, '') || '.';
  let path: string | undefined = `${dir}/${fileName}`;
  try {
    path = await o.workspace.resolve(path);
  } catch (error) {
    o.events.emit({ type: 'error', code: 'report_not_saved', message: `Cannot save the report at ${path}: ${errorMessage(error)}` });
    path = undefined;
  }
  const folder = path ? path.split('/').slice(0, -1).join('/') : '';
  const markdown = render(folder);
  if (path) {
    try {
      await o.workspace.writeFile(path, markdown, o.signal);
    } catch (error) {
      if (isCancellation(error)) throw error;
      o.events.emit({ type: 'error', code: 'report_not_saved', message: `Cannot save the report at ${path}: ${errorMessage(error)}` });
      path = undefined;
    }
  }
  o.events.emit(path ? { type: 'report', markdown, path } : { type: 'report', markdown });
  return { markdown, path, summary: draft.summary };
}

/** Saves the report through the sink (outside the workspace); the event carries no workspace path. */
async function saveToSink(sink: ReportSink, ctx: FlowContext, markdown: string, fileName: string, summary: string): Promise<WrittenReport> {
  const o = ctx.options;
  try {
    const where = await sink.save(fileName, markdown, o.signal);
    o.logger.info(`report saved outside the workspace: ${where}`);
  } catch (error) {
    if (isCancellation(error)) throw error;
    o.events.emit({ type: 'error', code: 'report_not_saved', message: `Cannot save the report ${fileName}: ${errorMessage(error)}` });
  }
  o.events.emit({ type: 'report', markdown });
  return { markdown, summary };
}

async function draftReport(ctx: FlowContext, state: FlowState, ending: Ending, files: string[]): Promise<ReportDraft | undefined> {
  if (ctx.signal.aborted) return undefined;
  const user = [
    `# The user's task\n${state.task}`,
    `# The plan and what each step did\n${renderPlan(state.plan, state.notes)}`,
    `# Outcome\n${ending.outcome}${ending.reason ? `: ${ending.reason}` : ''}`,
    `# Files changed\n${files.join('\n') || '(none)'}`,
    `# Checks that ran after the last change (exit codes)\n${verificationLines(ctx.guards.evidence) ?? '(none)'}`,
    ...(ctx.tracker.sources().length ? [`# Web sources read\n${ctx.tracker.sources().join('\n')}`] : []),
  ].join('\n\n');
  try {
    const first = await askReporter(ctx, user);
    if (!first) return undefined;
    // A draft that says the checks pass against the evidence is sent back once to be corrected; the answer is kept as written.
    const correction = draftClaimsPass(first) ? correctionRequest(ctx.guards.evidence) : undefined;
    if (!correction) return first;
    return (await askReporter(ctx, `${user}\n\n# Your draft\n${JSON.stringify(first)}\n\n# Correct it\n${correction}`)) ?? first;
  } catch (error) {
    if (ctx.options.signal.aborted) throw error;
    if (!(error instanceof ModelError) && !isCancellation(error)) throw error;
    ctx.options.logger.warn(`report call failed: ${errorMessage(error)}`);
  }
  return undefined;
}

async function askReporter(ctx: FlowContext, user: string): Promise<ReportDraft | undefined> {
  const result = await structuredCall({
    model: modelFor(ctx.options.models, 'report'),
    system: `${REPORT_PROMPT}\n${languageInstruction(ctx.language)}`,
    user,
    choices: { write_report: { description: 'Submit the report.', schema: ReportDraft } },
    signal: ctx.signal,
    maxRetries: 1,
    onUsage: flowUsage(ctx),
    tokenCounter: ctx.options.tokenCounter,
  });
  if (result.ok) return result.value;
  ctx.options.logger.warn(`report answer unusable: ${result.error}`);
  return undefined;
}

function draftClaimsPass(draft: ReportDraft): boolean {
  return [draft.summary, ...draft.findings, ...draft.left].some(claimsPass);
}

/** Notes that stand beside the prose where it claims the checks pass against the evidence, by section. */
export interface ClaimNotes {
  summary?: string;
  steps?: string;
  findings?: string;
  left?: string;
}

function claimNotes(ctx: FlowContext, state: FlowState, draft: ReportDraft, strings: ReportStrings): ClaimNotes {
  const note = (texts: readonly string[]) => claimNote(texts, ctx.guards.evidence, strings);
  const stepNotes = state.plan.steps.filter(isDone).map((s) => state.notes[s.id] ?? '');
  const notes = { summary: note([draft.summary]), steps: note(stepNotes), findings: note(draft.findings), left: note(draft.left) };
  return Object.fromEntries(Object.entries(notes).filter(([, v]) => v !== undefined));
}

/** A report from the step summaries alone (no model call). */
export function fallbackDraft(state: FlowState, strings: ReportStrings): ReportDraft {
  const steps = state.plan.steps;
  const completed = steps.filter((s) => s.status === 'completed');
  const last = completed.at(-1);
  return {
    summary: last ? (state.notes[last.id] ?? last.title) : state.plan.goal,
    findings: completed.map((s) => `${s.title}: ${state.notes[s.id] ?? ''}`.trim()),
    verification: '',
    left: steps.filter((s) => s.status !== 'completed').map((s) => `${s.title} (${strings.status[s.status]})`),
  };
}

/**
 * Renders the report markdown; links are relative to `folder`, where the report is saved. The
 * model's prose (summary, findings, what is left, step notes) is written byte for byte; a claim the
 * evidence contradicts gets its note in a block of its own after the section (`notes`).
 */
// eslint-disable-next-line max-params -- pure renderer of the report's parts; the "Shape" work of issue 21 reshapes its inputs
export function renderReport(
  state: FlowState,
  ending: Ending,
  draft: ReportDraft,
  files: readonly ChangedPath[],
  images: string[],
  folder: string,
  strings: ReportStrings,
  notes: ClaimNotes = {},
): string {
  const link = (file: string) => markdownHref(relativePath(folder, file));
  const bullets = (items: string[], empty: string) => (items.length ? items.map((i) => `- ${i}`).join('\n') : empty);
  const beside = (note: string | undefined) => (note ? ['', `> ${note}`] : []);
  const out = [`# ${strings.title}: ${state.plan.goal}`, ''];
  if (ending.outcome !== 'finished') out.push(`> ${strings.outcome[ending.outcome]}${ending.reason ? `: ${ending.reason}` : ''}`, '');
  out.push(`## ${strings.summary}`, '', draft.summary, ...beside(notes.summary), '');
  out.push(`## ${strings.steps}`, '');
  state.plan.steps.forEach((s, i) => {
    out.push(`${i + 1}. **${s.title}** (${strings.status[s.status]})${isDone(s) && state.notes[s.id] ? ` — ${state.notes[s.id]!}` : ''}`);
  });
  out.push(...beside(notes.steps));
  out.push('', `## ${strings.filesChanged}`, '');
  out.push(files.length ? files.map((f) => (f.deleted ? `- ${f.path} (${strings.deleted})` : `- [${f.path}](${link(f.path)})`)).join('\n') : strings.noFilesChanged, '');
  if (images.length) {
    out.push(`## ${strings.images}`, '');
    for (const image of images) out.push(`![${image}](${link(image)})`, '');
  }
  out.push(`## ${strings.findings}`, '', bullets(draft.findings, '-'), ...beside(notes.findings), '');
  out.push(`## ${strings.verification}`, '', draft.verification.trim() || strings.notVerified, '');
  out.push(`## ${strings.left}`, '', bullets(draft.left, strings.nothingLeft), ...beside(notes.left), '');
  return out.join('\n');
}

/** The report with a Sources section listing every web page the task read (after the findings they back). */
export function withSources(markdown: string, sources: readonly string[], strings: ReportStrings): string {
  if (sources.length === 0) return markdown;
  const list = sources.map((url) => `- <${url.replace(/[<>\s]/g, encodeURIComponent)}>`).join('\n');
  return `${markdown.trimEnd()}\n\n## ${strings.sources}\n\n${list}\n`;
}

/** The report with a Tables section (what `python_execute`'s `show_table` printed) before the findings it backs. */
export function withTables(markdown: string, tables: readonly string[], strings: ReportStrings): string {
  if (tables.length === 0) return markdown;
  const section = `## ${strings.tables}\n\n${tables.join('\n\n')}\n\n`;
  const at = markdown.indexOf(`\n## ${strings.findings}\n`);
  return at < 0 ? `${markdown.trimEnd()}\n\n${section}` : `${markdown.slice(0, at + 1)}${section}${markdown.slice(at + 1)}`;
}

/** Images among the changed files, plus images commands mentioned that exist now. */
async function existingImages(ctx: FlowContext, files: string[], mentions: string[]): Promise<string[]> {
  const images = files.filter(isImagePath);
  for (const mention of mentions) {
    try {
      const path = await ctx.options.workspace.resolve(mention);
      if (images.includes(path)) continue;
      if ((await ctx.options.workspace.stat(path))?.kind === 'file') images.push(path);
    } catch {
      // A mention that is not a workspace file is just text.
    }
  }
  return images;
}
