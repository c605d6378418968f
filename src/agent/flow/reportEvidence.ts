import type { Evidence } from '../verify/evidence';
import type { FlowContext } from './flowContext';
import { checkWords } from '../ending/decideEnding';
import type { CheckFact } from '../ending/endingFacts';
import type { ReportStrings } from './language';

/** A changed file as the report lists it. */
export interface ChangedPath {
  path: string;
  deleted?: boolean;
}

/**
 * The files the task changed: from the checkpoints (start to now, so files written by commands
 * count) when there are any, else the paths the file tools wrote (normalised by the workspace).
 */
export async function reportFiles(ctx: FlowContext): Promise<ChangedPath[]> {
  await ctx.guards.checkpoints.take('task_end');
  const changes = await ctx.guards.checkpoints.changedFiles();
  const written: string[] = [];
  for (const path of ctx.tracker.files()) {
    try {
      const resolved = await ctx.options.workspace.resolve(path);
      if (!written.includes(resolved)) written.push(resolved);
    } catch {
      ctx.options.logger.debug(`report: dropped changed path ${path}`);
    }
  }
  if (!changes) return written.map((path) => ({ path }));
  // Files the tools wrote first, in the order written; then the rest (commands' changes) by path.
  const rank = (path: string) => (written.includes(path) ? written.indexOf(path) : written.length);
  return [...changes]
    .sort((a, b) => rank(a.path) - rank(b.path))
    .map((c) => (c.status === 'deleted' ? { path: c.path, deleted: true } : { path: c.path }));
}

/** The "How it was verified" section: each check run after the last change with its exit code, or `undefined` (not verified). */
export function verificationLines(evidence: Evidence): string | undefined {
  const runs = evidence.checksAfterLastChange();
  if (!runs.length) return undefined;
  return runs.map((r) => `- \`${r.command.replace(/`/g, "'")}\` → ${r.exitCode === null ? 'no exit code (timed out or killed)' : `exit ${r.exitCode}`}`).join('\n');
}

/** Prose that says tests or checks passed (English and Chinese). Only detected, never edited. */
const PASS_CLAIM = /\b(?:tests?|checks?|specs?|suites?|builds?)\b[^\n]{0,60}?\b(?:pass(?:ed|es|ing)?|succeed(?:ed|s)?|green)\b|\ball (?:green|passing)\b|测试[^。；！？\n]{0,20}通过/i;

/** True when `text` claims that tests or checks pass. */
export function claimsPass(text: string): boolean {
  return PASS_CLAIM.test(text);
}

/**
 * What the evidence says against a pass claim: the failed checks after the last change, or that no
 * check ran after it (when files changed); `undefined` when a claim would be backed.
 */
export function contradiction(evidence: Evidence): { failed: CheckFact[] } | { unchecked: true } | undefined {
  const runs = evidence.checksAfterLastChange();
  const failed = runs.filter((r) => r.exitCode !== 0).map((r) => ({ command: r.command, exitCode: r.exitCode }));
  if (failed.length) return { failed };
  if (evidence.changedFiles && !runs.length) return { unchecked: true };
  return undefined;
}

/**
 * The note that stands beside prose claiming the checks pass when the evidence says otherwise (a
 * separate block: the prose itself is never edited), or `undefined` when there is nothing to say.
 */
export function claimNote(texts: readonly string[], evidence: Evidence, strings: ReportStrings): string | undefined {
  if (!texts.some(claimsPass)) return undefined;
  const against = contradiction(evidence);
  if (!against) return undefined;
  return 'failed' in against ? strings.claimContradicted.replace('{facts}', checkWords(against.failed)) : strings.claimUnchecked;
}

/** The one request to the reporter to correct itself, naming the facts its draft contradicts. */
export function correctionRequest(evidence: Evidence): string | undefined {
  const against = contradiction(evidence);
  if (!against) return undefined;
  const facts = 'failed' in against ? checkWords(against.failed) : 'no check ran after the last change';
  return `Your report says the tests or checks pass, but ${facts}. Write the report again so that it says what the evidence shows.`;
}
