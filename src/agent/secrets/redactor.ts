import { looksSecret } from './secretEnv';

/** Shortest secret we redact by value: shorter strings would blank out ordinary words. */
const MIN_SECRET_LENGTH = 6;
/** Values of secret-looking variables shorter than this are not redacted (`GIT_TERMINAL_PROMPT=0`-like noise). */
const MIN_ENV_SECRET_LENGTH = 8;

/** Key-shaped strings redacted even when their value was never registered (keys pasted in a URL, env dumps). */
const KEY_PATTERNS: RegExp[] = [/\bsk-[A-Za-z0-9_-]{12,}/g, /\b(Bearer\s+)[A-Za-z0-9._~+/=-]{12,}/gi];

/**
 * `.env`-style assignments: `NAME=value` at the start of a line (or of a JSON string, or after an
 * escaped `\n` inside one, as events are redacted in their JSON form), with an optional `export `.
 * A line may carry a gutter as tools print it (`12| `, `12\t`, the empty column `\t`, grep's `path:12:`),
 * indentation (a tab is `\t` in the JSON form), a markdown list,
 * quote or code mark, or a `#` (a commented-out line still holds a real value). No spaces
 * around `=`: code such as `token = getToken()` stays readable for the agent's edits.
 * Groups: 1 the line's start, 2 gutter and `export `, 3 the name, 4 an opening quote (maybe escaped), 5 the value.
 */
const ENV_LINE = /(^|\n|\\n|\\r|")((?:[^\s:"\\]+:\d+:)?(?:(?:[ \t]|\\t)*\d+(?:\||:|\t|\\t)[ \t]?)?(?:[ \t]|\\t)*(?:[-*+>#][ \t]*|`)*(?:export[ \t]+)?)([A-Za-z_][A-Za-z0-9_.-]*)=(\\?["']|)((?<=")[^"\\\n]{6,}|(?<=')[^'\\\n]{6,}|[^\s"'`\\]{6,})/gm;

/**
 * Replaces known secrets (registered values, values of secret-looking `NAME=value` lines, and
 * anything shaped like an API key) with `[redacted]`. The core applies it to every model request
 * (model/promptBoundary.ts), every event (`EventStream`), every tool result and the report; the
 * shells apply it to their logs.
 */
export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a value that must never appear in output. */
  add(secret: string): void {
    const value = secret.trim();
    if (value.length >= MIN_SECRET_LENGTH) this.secrets.add(value);
  }

  /** Registers the values of the environment's secret-looking variables (`*_API_KEY`, `*_TOKEN`, …). */
  addFromEnvironment(env: Readonly<Record<string, string | undefined>>): void {
    for (const [name, value] of Object.entries(env)) {
      if (value && value.length >= MIN_ENV_SECRET_LENGTH && looksSecret(name)) this.add(value);
    }
  }

  /** True when `value` is, or contains, a registered secret. */
  contains(value: string): boolean {
    for (const secret of this.secrets) if (value.includes(secret)) return true;
    return false;
  }

  /** The text with every registered secret, secret-looking assignment and key-shaped string replaced. */
  redact(text: string): string {
    let out = text;
    // Longest first, so a secret that contains another is replaced whole.
    for (const secret of [...this.secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join('[redacted]');
    out = redactEnvLines(out);
    for (const pattern of KEY_PATTERNS) out = out.replace(pattern, (_match, prefix?: string) => `${typeof prefix === 'string' ? prefix : ''}[redacted]`);
    return out;
  }
}

/**
 * A superset test for ENV_LINE matches that would be replaced: the name of such a match looks secret
 * (SECRET_NAME in secretEnv.ts) and is followed by `=`, so the text holds one of these words followed
 * by `=` (anchored ones) or by name characters and `=`. ENV_LINE is tried at every line and quote of
 * the text; this one regex with literal words is several times faster, and a generated file or a
 * multi-megabyte tool argument without such a name (nearly all) skips ENV_LINE. Keep in step with SECRET_NAME.
 */
const MAYBE_SECRET_ASSIGNMENT = /(?:API_?KEY|TOKEN|(?:ACCESS|PRIVATE|SIGNING)_KEY)=|(?:APIKEY|_AUTH_?TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)[A-Za-z0-9_.-]*=/i;

/** Work done, for tests and the bench: texts checked, and texts (and their characters) ENV_LINE scanned. */
export const envLineWork = { checked: 0, scanned: 0, scannedChars: 0 };

/** The value of every `NAME=value` line whose name looks secret (`.env`, `export X=…`) replaced; the name stays, so the model knows the variable exists. */
export function redactEnvLines(text: string): string {
  envLineWork.checked++;
  if (!MAYBE_SECRET_ASSIGNMENT.test(text)) return text;
  envLineWork.scanned++;
  envLineWork.scannedChars += text.length;
  return text.replace(ENV_LINE, (...found: string[]) => {
    const [match, start, prefix, name, quote, value] = found as [string, string, string, string, string, string];
    return looksSecret(name) && !value.startsWith('$') && !value.startsWith('[redacted]') ? `${start}${prefix}${name}=${quote}[redacted]` : match;
  });
}
