import type { Asker, Question } from '../agent/ports';
import type { Prompter } from './prompter';

/** Answers `ask_user` on a TTY (numbered options or free text); headless, nobody answers. */
export class CliAsker implements Asker {
  constructor(private readonly prompter: Prompter | undefined) {}

  async ask(question: Question, signal: AbortSignal): Promise<string | undefined> {
    if (!this.prompter) return undefined;
    const options = question.options ?? [];
    const list = options.map((o, i) => `  ${i + 1}. ${o}`).join('\n');
    const answer = (await this.prompter.ask(`\n? ${question.question}\n${list}${list ? '\n' : ''}> `, signal)).trim();
    const picked = Number(answer);
    if (Number.isInteger(picked) && picked >= 1 && picked <= options.length) return options[picked - 1];
    return answer;
  }
}
