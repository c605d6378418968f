/** Which command language a shell speaks: the policy parses a command line in it, the model is told it. */
export type ShellDialect = 'posix' | 'cmd' | 'powershell';

/** Which shell the user asked for (`stepwise.commands.shell`, `--shell`); `auto` picks by platform. */
export const SHELL_PREFERENCES = ['auto', 'pwsh', 'powershell', 'cmd', 'gitbash', 'bash', 'sh'] as const;
export type ShellPreference = (typeof SHELL_PREFERENCES)[number];

/** The shell commands run through, as the core sees it (the Node adapter picks it; see `src/node/shell`). */
export interface ShellInfo {
  dialect: ShellDialect;
  /** A short name for people and the model: `bash`, `cmd.exe`, `pwsh`, `Windows PowerShell`, `Git Bash`. */
  name: string;
}

/** One line for the system prompt: which shell `run_command` uses, and how it reads a command line. */
export function shellPromptLine(shell: ShellInfo): string {
  switch (shell.dialect) {
    case 'cmd':
      return `run_command runs through ${shell.name} (cmd.exe syntax: \`&&\`, \`|\`, \`%VAR%\`, \`dir\`, \`type\`; no POSIX tools unless installed)`;
    case 'powershell':
      return `run_command runs through ${shell.name} (PowerShell syntax: \`;\`, \`|\`, \`$env:VAR\`, cmdlets)`;
    default:
      return `run_command runs through ${shell.name} (POSIX shell syntax)`;
  }
}
