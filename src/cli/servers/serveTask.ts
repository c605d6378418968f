import { randomUUID } from 'node:crypto';
import { CancelledError } from '../../agent/errors';
import type { ApprovalDecision, ApprovalRequest, Approver, Asker, Question } from '../../agent/ports';
import type { EventEnvelope } from '../../shared/events';
import { runServerTask, type ServerStart, type ServerTaskResult, type ServerTaskSpec } from './serverTask';

/** Waits for one answer per call id, given later by another request; cancelled with the task. */
class PendingAnswers<T> {
  private readonly waiting = new Map<string, (answer: T) => void>();

  wait(callId: string, signal: AbortSignal): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      if (signal.aborted) return reject(new CancelledError());
      const onAbort = () => {
        this.waiting.delete(callId);
        reject(new CancelledError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.waiting.set(callId, (answer) => {
        signal.removeEventListener('abort', onAbort);
        this.waiting.delete(callId);
        resolve(answer);
      });
    });
  }

  /** Gives the answer; false when nothing waits for this call id. */
  answer(callId: string, answer: T): boolean {
    const give = this.waiting.get(callId);
    give?.(answer);
    return give !== undefined;
  }

  ids(): string[] {
    return [...this.waiting.keys()];
  }
}

/**
 * One task of `stepwise serve`: its envelopes (kept for late SSE subscribers, who get them all
 * from the first), its live listeners, and the approvals and questions waiting for the client. The
 * approver here is only the person: the CLI's `PolicyApprover` decides first and announces the
 * request (`approval_requested`) before it waits here.
 */
export class ServeTask implements Approver, Asker {
  readonly id = randomUUID();
  readonly envelopes: EventEnvelope[] = [];
  readonly done: Promise<ServerTaskResult>;
  result: ServerTaskResult | undefined;
  private readonly listeners = new Set<(envelope: EventEnvelope | undefined) => void>();
  private readonly controller = new AbortController();
  private readonly approvals = new PendingAnswers<ApprovalDecision>();
  private readonly questions = new PendingAnswers<string>();

  constructor(start: ServerStart, spec: ServerTaskSpec) {
    this.done = runServerTask(start, spec, {
      onEnvelope: (envelope) => {
        this.envelopes.push(envelope);
        for (const listener of this.listeners) listener(envelope);
      },
      approver: this,
      asker: this,
      signal: this.controller.signal,
    }).then((result) => {
      this.result = result;
      // `undefined` tells listeners the task is over.
      for (const listener of this.listeners) listener(undefined);
      this.listeners.clear();
      return result;
    });
  }

  approve(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    return this.approvals.wait(request.callId, signal);
  }

  async ask(question: Question, signal: AbortSignal): Promise<string | undefined> {
    return this.questions.wait(question.callId, signal);
  }

  /** The client's answer to a waiting approval; false when none waits under this id. */
  answerApproval(callId: string, decision: ApprovalDecision): boolean {
    return this.approvals.answer(callId, decision);
  }

  /** The client's answer to a waiting question; false when none waits under this id. */
  answerQuestion(callId: string, answer: string): boolean {
    return this.questions.answer(callId, answer);
  }

  /** Stops the task as Ctrl-C stops `stepwise run` (it ends `cancelled`). */
  stop(): void {
    this.controller.abort();
  }

  /** Calls `listener` with every envelope so far, then each new one, then `undefined` at the end; returns the unsubscribe. */
  follow(listener: (envelope: EventEnvelope | undefined) => void): () => void {
    for (const envelope of this.envelopes) listener(envelope);
    if (this.result) {
      listener(undefined);
      return () => undefined;
    }
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** What `GET /tasks/:id` shows. */
  status(): Record<string, unknown> {
    const finished = this.result?.finished;
    return {
      id: this.id,
      runId: this.result?.runId ?? this.envelopes[0]?.runId,
      state: this.result ? 'ended' : 'running',
      ...(finished ? { outcome: finished.outcome, summary: finished.summary, reason: finished.reason } : {}),
      ...(this.result?.problem ? { problem: this.result.problem } : {}),
      waitingApprovals: this.approvals.ids(),
      waitingQuestions: this.questions.ids(),
    };
  }
}
