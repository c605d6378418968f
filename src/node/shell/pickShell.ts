import { execFile } from 'node:child_process';
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import path from 'node:path';
import { nodeChildEnvironment } from '../childEnv';
import { findExecutable } from '../findExecutable';
import { shellCandidates, type ShellCandidate, type ShellChoice, type ShellEnvironment, type ShellPreference } from './shellChoice';

const PROBE_MS = 15_000;

async function isFile(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return (await stat(file)).isFile();
  } catch {
    return false;
  }
}

/** True when PowerShell at `file` really runs a command (Wine's stub and a broken install print nothing). */
function powershellAnswers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    try {
      execFile(file, ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', '$PSVersionTable.PSVersion.Major'], {
        timeout: PROBE_MS, windowsHide: true, env: nodeChildEnvironment({ kind: 'tool' }),
      }, (error, stdout) => resolve(!error && /^\s*\d+\s*$/.test(String(stdout))));
    } catch {
      resolve(false);
    }
  });
}

async function locate(candidate: ShellCandidate, searchPath: string): Promise<string | undefined> {
  for (const name of candidate.names) {
    const found = await findExecutable(name, searchPath);
    if (found) return found;
  }
  for (const place of candidate.places) if (await isFile(place)) return place;
  return undefined;
}

/**
 * The shell commands run through: the first candidate of `shellCandidates` that exists (and, for
 * PowerShell, answers a probe). Windows ends with cmd.exe, POSIX with `/bin/sh`, named even when it
 * could not be found so the failure to start is reported by the runner like any other.
 */
export async function pickShell(preference: ShellPreference = 'auto', where: ShellEnvironment = { platform: process.platform, env: process.env }): Promise<ShellChoice> {
  const candidates = shellCandidates(preference, where);
  const searchPath = where.env.PATH ?? where.env.Path ?? '';
  for (const candidate of candidates) {
    const file = await locate(candidate, searchPath);
    if (!file) continue;
    if (candidate.probe && !(await powershellAnswers(file))) continue;
    return { dialect: candidate.dialect, name: candidate.name, file };
  }
  const last = candidates[candidates.length - 1]!;
  return { dialect: last.dialect, name: last.name, file: last.places[0] ?? last.names[0] ?? path.basename(last.name) };
}
