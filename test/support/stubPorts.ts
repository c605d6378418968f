import type {
  ApprovalDecision,
  ApprovalRequest,
  Approver,
  Asker,
  CommandRunner,
  Question,
  Workspace,
} from '../../src/agent/ports';

/** A Workspace for tests whose tools never touch files: every method rejects, naming itself. */
export function stubWorkspace(root = '/stub-workspace'): Workspace {
  const unavailable = (method: string) => () => Promise.reject(new Error(`stubWorkspace.${method} is not available in this test`));
  return {
    root,
    resolve: unavailable('resolve'),
    stat: unavailable('stat'),
    readFile: unavailable('readFile'),
    readRange: unavailable('readRange'),
    writeFile: unavailable('writeFile'),
    listFiles: unavailable('listFiles'),
    searchFiles: unavailable('searchFiles'),
  };
}

/** A CommandRunner for tests that run no commands: `run` rejects. */
export function stubCommandRunner(): CommandRunner {
  return { sandboxMode: () => 'off', run: () => Promise.reject(new Error('stubCommandRunner.run is not available in this test')) };
}

/** An Approver that answers from `decide` and records every request. */
export function recordingApprover(decide: (request: ApprovalRequest) => ApprovalDecision = () => ({ approved: true })): Approver & {
  requests: ApprovalRequest[];
} {
  const requests: ApprovalRequest[] = [];
  return {
    requests,
    approve: async (request) => {
      requests.push(request);
      // It stands for a person's UI, which announces the request before asking (so the answer is not `auto`).
      request.announce?.();
      return decide(request);
    },
  };
}

/** An Asker that answers from a list (then `undefined`) and records the questions. */
export function scriptedAsker(answers: (string | undefined)[] = []): Asker & { questions: Question[] } {
  const questions: Question[] = [];
  return {
    questions,
    ask: async (question) => {
      questions.push(question);
      return answers.shift();
    },
  };
}
