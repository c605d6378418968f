// Entry point of both webviews; `<body data-view="sidebar|panel">` picks the view.
import { WebviewKind } from '../../src/shared/webviewProtocol';
import { App } from './app';
import { connectHost } from './hostApi';

const kind = WebviewKind.safeParse(document.body.dataset.view);
const app = new App(document.body, kind.success ? kind.data : 'sidebar', connectHost(), document.documentElement.lang || navigator.language || 'en');
window.addEventListener('message', (event: MessageEvent) => app.receive(event.data));
// Exposed for the Chromium tests and the render benchmark; holds nothing the page could not already see.
(window as unknown as { stepwise?: App }).stepwise = app;
app.start();
