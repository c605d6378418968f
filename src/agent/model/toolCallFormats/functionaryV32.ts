import { parseTolerantJson } from './tolerantJson';
import { CallCollector, type FormatParser } from './types';

/** A message: its recipient on the first line, then its content. */
const MESSAGE = /^\s*([A-Za-z_][\w.-]*)[ \t]*\n([\s\S]*)$/;

/**
 * Functionary v3.2 / medium-v3.0: the answer is a series of messages, each opened by its recipient,
 * `all\nSome text>>>read_file\n{"path": "a"}>>>write_file\n{...}`: `all` is text for the user, any
 * other recipient is a call with JSON arguments (the first message may come without `>>>`). Only
 * answers with a message to an offered tool count, so `>>>` in a REPL transcript stays text.
 */
export const functionaryV32Format: FormatParser = {
  format: 'Functionary v3.2 >>>name',
  markers: (catalog) => ['>>>all', ...[...catalog.names].map((name) => `>>>${name}`)],
  parse(text, catalog) {
    const [first = '', ...rest] = text.replace(/<\|eot_id\|>/g, '').split('>>>');
    const head = MESSAGE.exec(first);
    // The answer's first message counts only when it names a recipient; otherwise it is plain text.
    const leading = head && (head[1] === 'all' || catalog.names.has(head[1]!)) ? [first] : [];
    const messages = [...leading, ...rest];
    if (!messages.some((message) => catalog.names.has(MESSAGE.exec(message)?.[1] ?? ''))) return undefined;
    const found = new CallCollector(this.format, catalog);
    const visible: string[] = leading.length ? [] : [first];
    for (const message of messages) {
      const parts = MESSAGE.exec(message);
      if (!parts) {
        found.fail('each message after >>> must start with its recipient on a line of its own', `>>>${message}`);
        continue;
      }
      const [, name = '', body = ''] = parts;
      if (name === 'all') {
        visible.push(body);
        continue;
      }
      const args = parseTolerantJson(body);
      if (typeof args !== 'object' || args === null || Array.isArray(args)) found.fail(`the message to ${name} must be one JSON object of its arguments`, `>>>${message}`);
      else found.add(name, args);
    }
    return found.result(visible.map((part) => part.trim()).filter(Boolean).join('\n\n'));
  },
};
