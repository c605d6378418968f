/** Attributes for `h`: strings become attributes, `false`/`undefined` are skipped; `class` may be an array. */
export type Attrs = Record<string, string | number | boolean | undefined | (string | false | undefined)[]>;

/** A child for `h`: strings become text nodes (never parsed as HTML). */
export type Child = Node | string | number | false | null | undefined;

/** Creates an element; text is always inserted as text, so model output cannot inject markup here. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Attrs = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === false) continue;
    if (name === 'class') {
      const classes = Array.isArray(value) ? value.filter((c): c is string => typeof c === 'string' && c !== '') : String(value).split(/\s+/).filter(Boolean);
      element.classList.add(...classes);
    } else {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, ...children);
  return element;
}

/** Appends children, skipping empty ones. */
export function append(parent: Node, ...children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === null || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.textContent = '';
  append(parent, ...children);
}

/** Sets text only when it differs, so an unchanged node is not touched (no layout, no selection loss). */
export function setText(element: Element, text: string): void {
  if (element.textContent !== text) element.textContent = text;
}

/** Shows or hides an element with the `hidden` attribute. */
export function setShown(element: HTMLElement, shown: boolean): void {
  if (element.hidden === shown) element.hidden = !shown;
}

/** Shortens text to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= max ? line : `${line.slice(0, Math.max(0, max - 1))}…`;
}

/** Cuts text to `max` characters keeping its line breaks; marks the cut with an ellipsis. */
export function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

/** A button with a label (and optional tooltip); `kind` picks the theme's primary or secondary colours. */
export function button(label: string, onClick: () => void, options: { kind?: 'primary' | 'secondary' | 'icon'; title?: string; icon?: SVGElement; action?: string } = {}): HTMLButtonElement {
  const kind = options.kind ?? 'secondary';
  const el = h('button', { type: 'button', class: ['btn', `btn-${kind}`], title: options.title, 'aria-label': kind === 'icon' ? label : undefined, 'data-action': options.action });
  if (options.icon) el.appendChild(options.icon);
  if (kind !== 'icon') el.appendChild(document.createTextNode(label));
  el.addEventListener('click', (event) => {
    event.preventDefault();
    onClick();
  });
  return el;
}

const numberFormats = new Map<string, Intl.NumberFormat | undefined>();

/** Formats a token count the way the UI language writes numbers (formatters are cached: they are slow to make). */
export function formatCount(value: number, lang: string): string {
  if (!numberFormats.has(lang)) {
    let format: Intl.NumberFormat | undefined;
    try {
      format = new Intl.NumberFormat(lang);
    } catch {
      format = undefined;
    }
    numberFormats.set(lang, format);
  }
  return numberFormats.get(lang)?.format(value) ?? String(value);
}

/** Text with `code` spans (backticks) as `<code>` elements; everything stays text, nothing is parsed as HTML. */
export function inlineCode(text: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  text.split(/(`[^`\n]+`)/).forEach((part) => {
    if (part.length > 2 && part.startsWith('`') && part.endsWith('`')) fragment.appendChild(h('code', {}, part.slice(1, -1)));
    else if (part) fragment.appendChild(document.createTextNode(part));
  });
  return fragment;
}
