import type { StepStatus } from '../../src/shared/events';
import type { ToolStatus } from './viewModel';

const NS = 'http://www.w3.org/2000/svg';

/** Names of the inline icons (16x16, drawn with `currentColor`, so CSS picks the theme colour). */
export type IconName =
  | 'pending' | 'progress' | 'check' | 'cross' | 'blocked' | 'skip'
  | 'plus' | 'panel' | 'stop' | 'send' | 'up' | 'down' | 'trash' | 'retry' | 'tool' | 'warning' | 'info' | 'question' | 'shield' | 'pin' | 'export';

// Each icon is a list of [element, attributes]; strokes only, no fills from outside the theme.
const SHAPES: Record<IconName, [string, Record<string, string>][]> = {
  pending: [['circle', { cx: '8', cy: '8', r: '5.5' }]],
  progress: [['circle', { cx: '8', cy: '8', r: '5.5', opacity: '0.35' }], ['path', { d: 'M8 2.5a5.5 5.5 0 0 1 5.5 5.5' }]],
  check: [['path', { d: 'M3 8.5l3.2 3L13 4.5' }]],
  cross: [['path', { d: 'M4 4l8 8M12 4l-8 8' }]],
  blocked: [['circle', { cx: '8', cy: '8', r: '5.5' }], ['path', { d: 'M4.2 11.8l7.6-7.6' }]],
  skip: [['path', { d: 'M3 4l5 4-5 4M8.5 4l5 4-5 4' }]],
  plus: [['path', { d: 'M8 3v10M3 8h10' }]],
  panel: [['rect', { x: '2', y: '3', width: '12', height: '10', rx: '1' }], ['path', { d: 'M6.5 3v10' }]],
  stop: [['rect', { x: '4', y: '4', width: '8', height: '8', rx: '1' }]],
  send: [['path', { d: 'M2.5 8h9M8 4.5L11.5 8 8 11.5' }]],
  up: [['path', { d: 'M4 10l4-4 4 4' }]],
  down: [['path', { d: 'M4 6l4 4 4-4' }]],
  trash: [['path', { d: 'M3 4.5h10M6.5 4.5V3h3v1.5M4.5 4.5l.7 8.5h5.6l.7-8.5' }]],
  retry: [['path', { d: 'M12.5 8a4.5 4.5 0 1 1-1.3-3.2M12.5 2.5v2.8H9.7' }]],
  tool: [['path', { d: 'M10 2.5a3 3 0 0 0-2.8 4L2.8 10.9a1.3 1.3 0 0 0 1.8 1.8l4.4-4.4A3 3 0 0 0 13 5.5l-1.8 1.2-1.9-.6-.6-1.9z' }]],
  warning: [['path', { d: 'M8 2.5l6 10.5H2zM8 6.5v3M8 11.2v.3' }]],
  info: [['circle', { cx: '8', cy: '8', r: '5.5' }], ['path', { d: 'M8 7.2v4M8 4.8v.3' }]],
  question: [['circle', { cx: '8', cy: '8', r: '5.5' }], ['path', { d: 'M6.3 6.3a1.8 1.8 0 1 1 2.4 1.7c-.5.2-.7.6-.7 1.1M8 11.2v.3' }]],
  pin: [['path', { d: 'M6 2.5h4M7 2.5v4l-2.5 2.5h7L9 6.5v-4M8 9v4.5' }]],
  shield: [['path', { d: 'M8 2l5 2v4c0 3-2.2 5-5 6-2.8-1-5-3-5-6V4z' }]],
  export: [['path', { d: 'M8 10V2.5M5 5.5l3-3 3 3M3 9.5v3.5h10V9.5' }]],
};

/** An inline SVG icon; decorative (aria-hidden), the label next to it carries the meaning. */
export function icon(name: IconName, className = ''): SVGSVGElement {
  const svg = document.createElementNS(NS, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('fill', 'none');
  svg.setAttribute('stroke', 'currentColor');
  svg.setAttribute('stroke-width', '1.5');
  svg.setAttribute('stroke-linecap', 'round');
  svg.setAttribute('stroke-linejoin', 'round');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', `icon icon-${name} ${className}`.trim());
  for (const [tag, attrs] of SHAPES[name]) {
    const shape = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) shape.setAttribute(key, value);
    svg.appendChild(shape);
  }
  return svg;
}

const STEP_ICONS: Record<StepStatus, IconName> = {
  pending: 'pending', in_progress: 'progress', completed: 'check', failed: 'cross', blocked: 'blocked', skipped: 'skip', stopped: 'stop',
};

/** The icon of a plan step status; the `status-<status>` class gives it its theme colour. */
export function stepIcon(status: StepStatus): SVGSVGElement {
  return icon(STEP_ICONS[status], `status-icon status-${status}`);
}

const TOOL_ICONS: Record<ToolStatus, IconName> = {
  running: 'progress', awaiting_approval: 'shield', done: 'check', error: 'cross', failed: 'cross', stopped: 'stop', rejected: 'blocked', interrupted: 'skip', background: 'progress', ended: 'info',
};

/** The icon of a tool card status, coloured by its `tool-<status>` class. */
export function toolIcon(status: ToolStatus): SVGSVGElement {
  return icon(TOOL_ICONS[status], `status-icon tool-${status}`);
}
