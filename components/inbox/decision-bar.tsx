/**
 * The decisions on an open task: Approve (submits the form), Reject (asks for an error code the
 * model catches, default `rejected`, and a reason), Send back (asks for an earlier step), Skip.
 * A task whose act declares outcomes (vocab/outcomes.ts) shows one button per outcome instead of
 * Approve and Reject: the first that completes the act submits the form; one that takes a comment
 * opens a panel asking for it (refusing a blank one it requires, in the engine's sentence).
 * State: which panel is open — none → reject | back | comment:<outcome> → none (on confirm or Escape).
 */
'use client';
import { useId, useState } from 'react';
import { Button } from '../ui/button.tsx';
import styles from './task-form.module.css';
import type { TaskAction } from './use-task-action.ts';
import type { DeclaredOutcome } from '../../vocab/outcomes.ts';
import { CommentPanel } from './comment-panel.tsx';
import { enterTo, escapeTo, PanelButtons, usePanelFocus } from './panel-parts.tsx';

export type Panel = 'none' | 'reject' | 'back' | `comment:${string}`;

/** The panel asking for the comment of `outcome`. */
export function commentPanel(outcome: DeclaredOutcome): Panel {
  return `comment:${outcome.name}`;
}

interface DecisionBarProps {
  disabled: boolean;
  busy: TaskAction | null;
  backTo: Array<{ id: string; name: string }>;
  panel: Panel;
  onPanel: (panel: Panel) => void;
  onSend: (action: TaskAction, options?: Record<string, unknown>) => void;
  /** The act's declared outcomes (none: Approve and Reject). */
  outcomes: DeclaredOutcome[];
  /** The outcome being sent. */
  sending: string | null;
  /** An outcome chosen; `comment` once its comment panel was confirmed. */
  onOutcome: (outcome: DeclaredOutcome, comment?: string) => void;
}

/** The outcome the form's submit (Enter, `a`) chooses: the first that completes the act. */
export function submitOutcome(outcomes: DeclaredOutcome[]): DeclaredOutcome | undefined {
  return outcomes.find((o) => o.ecode === undefined);
}

export function DecisionBar({ disabled, busy, backTo, panel, onPanel, onSend, outcomes, sending, onOutcome }: DecisionBarProps) {
  const noBack = backTo.length === 0;
  const commenting = outcomes.find((o) => panel === commentPanel(o));
  return (
    <div className={styles.decisions}>
      <div className={styles.buttons} role="group" aria-label="Decision">
        {outcomes.length > 0 ? (
          <OutcomeButtons outcomes={outcomes} disabled={disabled} sending={busy === 'outcome' ? sending : null} onOutcome={onOutcome} />
        ) : (
          <>
            <Button type="submit" variant="primary" icon="check" disabled={disabled} busy={busy === 'complete'} aria-keyshortcuts="a" title="Approve (a)">
              Approve
            </Button>
            <Button variant="danger" icon="x" disabled={disabled} busy={busy === 'error'} aria-keyshortcuts="r" aria-expanded={panel === 'reject'} title="Reject (r)" onClick={() => onPanel(panel === 'reject' ? 'none' : 'reject')}>
              Reject…
            </Button>
          </>
        )}
        <Button
          icon="undo"
          disabled={disabled || noBack}
          busy={busy === 'back'}
          aria-keyshortcuts="b"
          aria-expanded={panel === 'back'}
          title={noBack ? 'No earlier step to send this task back to' : 'Send back (b)'}
          onClick={() => onPanel(panel === 'back' ? 'none' : 'back')}
        >
          Send back…
        </Button>
        <Button variant="ghost" icon="skip" disabled={disabled} busy={busy === 'skip'} onClick={() => onSend('skip')}>
          Skip
        </Button>
      </div>
      {panel === 'reject' ? <RejectPanel disabled={disabled} onCancel={() => onPanel('none')} onSend={(options) => onSend('error', options)} /> : null}
      {panel === 'back' && !noBack ? <BackPanel steps={backTo} disabled={disabled} onCancel={() => onPanel('none')} onSend={(to) => onSend('back', { to })} /> : null}
      {commenting ? <CommentPanel key={commenting.name} outcome={commenting} disabled={disabled} onCancel={() => onPanel('none')} onSend={(comment) => onOutcome(commenting, comment)} /> : null}
    </div>
  );
}

/** One button per declared outcome: one that completes the act looks primary, one that raises an ecode looks like a rejection. */
function OutcomeButtons({ outcomes, disabled, sending, onOutcome }: { outcomes: DeclaredOutcome[]; disabled: boolean; sending: string | null; onOutcome: (o: DeclaredOutcome) => void }) {
  const submit = submitOutcome(outcomes);
  return outcomes.map((o) =>
    o === submit ? (
      <Button key={o.name} type="submit" variant="primary" icon="check" disabled={disabled} busy={sending === o.name} aria-keyshortcuts="a" title={`${o.label} (a)`}>
        {o.label}
      </Button>
    ) : (
      <Button key={o.name} variant={o.ecode === undefined ? 'secondary' : 'danger'} icon={o.ecode === undefined ? 'check' : 'x'} disabled={disabled} busy={sending === o.name} title={o.ecode === undefined ? o.label : `${o.label} (raises ${o.ecode})`} onClick={() => onOutcome(o)}>
        {o.label}
      </Button>
    ),
  );
}

function RejectPanel({ disabled, onCancel, onSend }: { disabled: boolean; onCancel: () => void; onSend: (options: Record<string, unknown>) => void }) {
  const id = useId();
  const first = usePanelFocus<HTMLInputElement>();
  const [ecode, setEcode] = useState('rejected');
  const [reason, setReason] = useState('');
  const confirm = () => ecode.trim() && onSend({ ecode: ecode.trim(), ...(reason.trim() ? { message: reason.trim() } : {}) });
  return (
    <div className={styles.panel} role="group" aria-label="Reject the task" onKeyDown={(e) => escapeTo(e, onCancel)}>
      <div className={styles.field}>
        <label htmlFor={`${id}-code`} className={styles.label}>
          Error code
        </label>
        <input ref={first} id={`${id}-code`} className={styles.input} list={`${id}-codes`} value={ecode} onChange={(e) => setEcode(e.target.value)} onKeyDown={(e) => enterTo(e, confirm)} aria-describedby={`${id}-hint`} />
        <datalist id={`${id}-codes`}>
          <option value="rejected" />
          <option value="needs_changes" />
          <option value="not_allowed" />
        </datalist>
        <p id={`${id}-hint`} className={styles.hint}>
          The code the workflow catches (its `catches` decide what happens next).
        </p>
      </div>
      <div className={styles.field}>
        <label htmlFor={`${id}-reason`} className={styles.label}>
          Reason (optional)
        </label>
        <input id={`${id}-reason`} className={styles.input} value={reason} onChange={(e) => setReason(e.target.value)} onKeyDown={(e) => enterTo(e, confirm)} />
      </div>
      <PanelButtons label="Reject task" variant="danger" disabled={disabled || !ecode.trim()} onConfirm={confirm} onCancel={onCancel} />
    </div>
  );
}

function BackPanel({ steps, disabled, onCancel, onSend }: { steps: Array<{ id: string; name: string }>; disabled: boolean; onCancel: () => void; onSend: (to: string) => void }) {
  const id = useId();
  const first = usePanelFocus<HTMLSelectElement>();
  const [to, setTo] = useState(steps[0].id);
  return (
    <div className={styles.panel} role="group" aria-label="Send the task back" onKeyDown={(e) => escapeTo(e, onCancel)}>
      <div className={styles.field}>
        <label htmlFor={`${id}-to`} className={styles.label}>
          Send back to step
        </label>
        <select ref={first} id={`${id}-to`} className={styles.input} value={to} onChange={(e) => setTo(e.target.value)} onKeyDown={(e) => enterTo(e, () => onSend(to))}>
          {steps.map((s) => (
            <option key={s.id} value={s.id}>
              {s.name === s.id ? s.id : `${s.name} (${s.id})`}
            </option>
          ))}
        </select>
      </div>
      <PanelButtons label="Send back" variant="primary" disabled={disabled} onConfirm={() => onSend(to)} onCancel={onCancel} />
    </div>
  );
}
