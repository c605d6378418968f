import { SETTING_TRUST, type ConfirmConcern, type ConfirmSettingKey } from './settingTrust';

/** Longest value shown in the prompt; the rest is cut with an ellipsis (the fingerprint still covers all of it). */
export const MAX_SHOWN_VALUE_CHARS = 200;

/**
 * How a workspace value is shown: as JSON, so a newline or a quote inside a repository's string
 * cannot forge lines of the prompt, and cut to `MAX_SHOWN_VALUE_CHARS`.
 */
export function shownValue(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > MAX_SHOWN_VALUE_CHARS ? `${text.slice(0, MAX_SHOWN_VALUE_CHARS)}…` : text;
}

/**
 * One line per workspace value the user is asked to confirm: the setting's id, its value and what
 * it decides (`words`, translated by the shell, one per concern of the table).
 */
export function confirmLines(values: ReadonlyArray<readonly [ConfirmSettingKey, unknown]>, words: Readonly<Record<ConfirmConcern, string>>): string[] {
  return values.map(([key, value]) => `• stepwise.${key} = ${shownValue(value)} (${words[SETTING_TRUST[key].concern]})`);
}

/** Whether the values include the endpoint itself (`provider` or `baseUrl`): the prompt then names where the code goes. */
export function changesEndpoint(values: ReadonlyArray<readonly [ConfirmSettingKey, unknown]>): boolean {
  return values.some(([key]) => key === 'provider' || key === 'baseUrl');
}
