import { WebviewIntent } from '../../src/shared/webviewProtocol';

/** The object VS Code injects into a webview (one call per page load). */
export interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

/** The webview's side of the channel: validated intents out, persisted UI state. */
export interface HostApi {
  /** Sends an intent if it is valid; an invalid one (a bug) is logged and not sent. Returns whether it was sent. */
  post(intent: WebviewIntent): boolean;
  getState(): unknown;
  setState(state: unknown): void;
}

/** Wraps `acquireVsCodeApi()`; every outgoing message is checked against the protocol first. */
export function connectHost(api: VsCodeApi = acquireVsCodeApi()): HostApi {
  return {
    post(intent) {
      const parsed = WebviewIntent.safeParse(intent);
      if (!parsed.success) {
        console.warn('[stepwise] intent not sent: it does not match the protocol', parsed.error.issues);
        return false;
      }
      // JSON round trip: the host sees plain data, without `undefined` members.
      api.postMessage(JSON.parse(JSON.stringify(parsed.data)));
      return true;
    },
    getState: () => api.getState(),
    setState: (state) => api.setState(state),
  };
}
