/**
 * The form of one inbox task, beside the list: what it asks (title and description from the act's
 * params), the run's context (task-context.tsx), typed fields from its declared outputs
 * (use-answer-form.ts checks them as the server will and uploads the chosen files before the
 * answer is sent), and the decisions. A task that is no longer waiting (answered elsewhere while
 * the form was open) says so and cannot be submitted.
 * State: the answer (use-answer-form.ts; reset per task: the parent keys this component by task),
 * the open decision panel, and the action status (use-task-action.ts). `gone` (a live removal of
 * this task not caused here) re-reads the task; `request` (keyboard a/r/b) opens a panel or
 * approves, once the task is loaded. An act that declares outcomes (vocab/outcomes.ts) is answered
 * with one of them: `a` / Enter chooses the first that completes the act; an outcome that takes a
 * comment opens the comment panel first. A task decided by votes (vocab/quorum.ts) shows its votes
 * and the caller's Approve / Reject instead of the claim bar and the answer form (vote-panel.tsx).
 */
'use client';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useApiMutation, useApiQuery } from '../data/use-api.ts';
import { ErrorNote } from '../ui/error-note.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { StateBadge } from '../ui/state-badge.tsx';
import { commentPanel, DecisionBar, submitOutcome, type Panel } from './decision-bar.tsx';
import { COMMENT_KEY, declaredOutcomes, OUTCOME_KEY, type DeclaredOutcome } from '../../vocab/outcomes.ts';
import { formFields, formText } from './form-fields.ts';
import { OutputField } from './output-field.tsx';
import styles from './task-form.module.css';
import { TaskContext } from './task-context.tsx';
import { ClaimBar } from './claim-bar.tsx';
import { VotePanel } from './vote-panel.tsx';
import { TaskComments } from './task-comments.tsx';
import { useMe } from '../data/auth.ts';
import { useAnswerForm } from './use-answer-form.ts';
import { useTaskAction, type TaskAction } from './use-task-action.ts';
import { waited } from './waited.ts';
import { whoAnswers } from './who-answers.ts';

export type FormRequest = { kind: 'approve' | 'reject' | 'back'; n: number };

interface TaskFormProps {
  pid: string;
  tid: string;
  me: string;
  now: number;
  gone: number;
  request: FormRequest | null;
  onDone: (action: TaskAction, title: string) => void;
}

export function TaskForm({ pid, tid, me, now, gone, request, onDone }: TaskFormProps) {
  const form = useApiQuery('inbox.form', { pid, tid });
  const { can } = useMe();
  const data = form.data?.found ? form.data : null;
  const fields = useMemo(() => (data ? formFields(data.outputs, data.params) : []), [data]);
  const outcomes = useMemo(() => declaredOutcomes(data?.params), [data]);
  const [sending, setSending] = useState<string | null>(null);
  const text = formText(data?.params, data?.step?.name ?? data?.key ?? '');
  const action = useTaskAction({ pid, tid }, (done) => onDone(done, text.title));
  const answer = useAnswerForm({ pid, tid }, fields, data?.params);
  // a delegate of a `delegation: confirm` act proposes: the answer goes back to the delegator
  const propose = useApiMutation('inbox.propose', { invalidates: ['inbox.form', 'inbox.list'] });
  const proposing = data?.hold?.holder === me && Boolean(data.hold.delegator) && data.delegation === 'confirm';
  const [panel, setPanel] = useState<Panel>('none');
  const formRef = useRef<HTMLFormElement>(null);
  const closed = data !== null && !data.open;
  // a task decided by votes takes votes (VotePanel), not one answer
  const disabled = !data || closed || !data.mayAct || data.votes !== null || action.busy !== null || answer.uploading !== null;

  useEffect(() => {
    if (gone && !action.busy) void form.refetch();
    // deps: only when a removal is heard
  }, [gone]);
  useEffect(() => {
    if (action.error) void form.refetch();
    // deps: re-read the task after a refusal
  }, [action.error]);
  const handled = useRef(request?.n ?? 0);
  useEffect(() => {
    // a key pressed while the task loads applies once it is ready; keys from before this form never do
    if (!request || request.n <= handled.current || disabled) return;
    handled.current = request.n;
    if (request.kind === 'approve') formRef.current?.requestSubmit();
    // with declared outcomes there is no Reject panel: their buttons say what a rejection is
    else if (request.kind === 'reject') setPanel((open) => (outcomes.length === 0 ? 'reject' : open));
    else if (data.backTo.length > 0) setPanel('back');
  }, [request, disabled, data]);

  if (form.error) return <ErrorNote error={form.error} title="The task could not be read" onRetry={() => form.refetch()} />;
  if (!form.data) return <Spinner label="Loading the task" />;
  if (!data) return <p className={styles.notice}>This task no longer exists.</p>;

  /** The checked answer with its files uploaded, or null (what is wrong is said, its field focused). */
  const answers = async (): Promise<Record<string, unknown> | null> => {
    const checked = answer.check();
    if (!checked.ok) {
      if (checked.focus) formRef.current?.querySelector<HTMLElement>(`[name="${CSS.escape(checked.focus)}"], [name^="${CSS.escape(checked.focus)}."]`)?.focus();
      return null;
    }
    return answer.upload(checked.options);
  };
  /**
   * An outcome that completes the act takes the answers (checked like Approve); one that raises an
   * ecode takes none. One that takes a comment asks for it first (`comment` is then what was written).
   */
  const choose = async (outcome: DeclaredOutcome, comment?: string) => {
    if (disabled) return;
    if (outcome.comment && comment === undefined) return setPanel(commentPanel(outcome));
    if (outcome.ecode !== undefined) answer.clear();
    const options = outcome.ecode === undefined ? await answers() : {};
    if (!options) return;
    setPanel('none');
    if (proposing) return propose.mutate({ pid, tid, answer: { ...options, [OUTCOME_KEY]: outcome.name, ...(comment?.trim() ? { [COMMENT_KEY]: comment.trim() } : {}) } });
    setSending(outcome.name);
    void action.send('outcome', { ...options, [OUTCOME_KEY]: outcome.name, ...(comment?.trim() ? { [COMMENT_KEY]: comment.trim() } : {}) });
  };
  const approve = async (e: FormEvent) => {
    e.preventDefault();
    if (disabled) return;
    if (outcomes.length > 0) {
      const first = submitOutcome(outcomes);
      if (first) await choose(first);
      return;
    }
    const options = await answers();
    if (options && proposing) propose.mutate({ pid, tid, answer: options });
    else if (options) void action.send('complete', options);
  };
  const send = (what: TaskAction, options?: Record<string, unknown>) => {
    setPanel('none');
    void action.send(what, options);
  };

  return (
    <section className={styles.form} aria-labelledby={`task-title-${tid}`} data-testid="task-form">
      <header className={styles.header}>
        <p className={styles.context}>
          {data.process.name || data.process.mid} · {data.step?.name ?? data.key}
        </p>
        <h2 id={`task-title-${tid}`} className={styles.title}>
          {text.title}
        </h2>
        {text.description ? <p className={styles.description}>{text.description}</p> : null}
        <p className={styles.meta}>
          Waiting {waited(data.start_time, now)} · may be answered by {whoAnswers(data.assignment, me)}
        </p>
      </header>
      <TaskContext pid={data.pid} context={data.context} />
      {data.votes ? <VotePanel form={{ ...data, votes: data.votes }} me={me} onDone={(done) => onDone(done, text.title)} /> : <ClaimBar form={data} me={me} now={now} admin={can('override')} candidate={data.candidate} />}
      <TaskComments pid={data.pid} tid={data.tid} now={now} mayComment={data.open && (data.candidate || data.hold?.holder === me)} />
      {closed ? (
        <div className={styles.notice} role="status" data-testid="task-closed">
          <StateBadge state={data.state} /> This task is no longer waiting: someone else answered it while it was open. It cannot be submitted.
        </div>
      ) : !data.mayAct ? (
        <p className={styles.notice} role="status">
          {data.hold?.holder ? `${data.hold.holder} holds this task; you may answer it once they release it.` : `This task is assigned to ${whoAnswers(data.assignment)}; you may not answer it.`}
        </p>
      ) : null}
      <form ref={formRef} className={styles.body} onSubmit={(e) => void approve(e)} aria-label="Task answer" noValidate hidden={data.votes !== null}>
        {fields.length > 0 ? (
          <fieldset className={styles.fields} disabled={disabled}>
            <legend className={styles.legend}>Answer</legend>
            {fields.some((f) => f.required) ? <p className={styles.hint}>Fields marked * are required.</p> : null}
            {fields.map((f) => (
              <OutputField key={f.key} field={f} value={answer.valueOf(f)} disabled={disabled} invalid={answer.blank.has(f.key)} problems={answer.problems.get(f.key)} onChange={(v) => answer.set(f.key, v)} />
            ))}
          </fieldset>
        ) : null}
        {answer.invalid ? (
          <p role="alert" className={styles.invalid}>
            {answer.invalid}
          </p>
        ) : null}
        {answer.uploading ? <Spinner label={`Uploading ${answer.uploading}`} /> : null}
        <DecisionBar disabled={disabled} busy={action.busy} backTo={data.backTo} panel={panel} onPanel={setPanel} onSend={send} outcomes={outcomes} sending={sending} onOutcome={(o, comment) => void choose(o, comment)} />
      </form>
      {proposing ? (
        <p className={styles.notice} role="status" data-testid="task-proposing">
          {data.hold?.delegator} confirms the answer to this task: yours goes back to them.
        </p>
      ) : null}
      {propose.error ? <ErrorNote error={propose.error} title="Your answer was not sent back" /> : null}
      {action.error ? <ErrorNote error={action.error} title={`The server refused to ${verb(action.status.kind === 'refused' ? action.status.action : 'complete')} this task`} /> : null}
    </section>
  );
}

function verb(action: TaskAction): string {
  return { complete: 'approve', error: 'reject', back: 'send back', skip: 'skip', cancel: 'withdraw', outcome: 'answer' }[action];
}
