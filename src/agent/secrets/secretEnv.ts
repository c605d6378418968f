/** Variable names that look like they hold a secret: `*_API_KEY`, `*_TOKEN`, `*SECRET*`, `*PASSWORD*` and kin. */
const SECRET_NAME = /(^|_)API_?KEY$|APIKEY|(^|_)TOKEN$|_AUTH_?TOKEN|SECRET|PASSWORD|PASSWD|(^|_)(ACCESS|PRIVATE|SIGNING)_KEY$|CREDENTIAL/i;

/** True when a variable's name looks like it holds a secret. */
export function looksSecret(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** How a child's environment is cleaned. */
export interface EnvironmentRules {
  /** Names passed through although they look secret (the user's explicit choice). */
  passThrough?: readonly string[];
  /** True for a value holding a known secret (the model endpoint's key): dropped whatever its name. */
  isSecretValue?: (value: string) => boolean;
}
