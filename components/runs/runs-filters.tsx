/** The runs list's filters: a search, model, version, state, the started-time range, the failing node and stuck runs only (controlled by RunsList). */
'use client';
import { useId } from 'react';
import { useApiQuery } from '../data/use-api.ts';
import { RunsSearchBox } from './runs-search-box.tsx';
import styles from './runs.module.css';
import { LISTED_PROC_STATES } from '../../vocab/states.ts';

export interface RunFilters {
  /** A run id or its start, a business key or an input value (runs-search-box.tsx); trimmed. */
  search: string;
  mid: string;
  /** A model version (digits; empty for any). */
  ver: string;
  state: string;
  from: string;
  to: string;
  /** Only runs with a task in error at this node (its id, as the run page names it). */
  failing: string;
  /** Only runs nothing can move (marked by the engine's stuck-process detector). */
  stuck: boolean;
}

/**
 * The state filter's choice of runs that ended on a declared outcome (state completed, with an
 * outcome: processes.list `outcome: true`), beside the states themselves.
 */
export const ENDED_ON_OUTCOME = 'outcome';
/** The values the state filter takes. */
export const STATE_FILTERS: readonly string[] = [...LISTED_PROC_STATES, ENDED_ON_OUTCOME];

export const NO_FILTERS: RunFilters = { search: '', mid: '', ver: '', state: '', from: '', to: '', failing: '', stuck: false };

/** Whether any filter narrows the list. */
export const anyFilter = (f: RunFilters): boolean => Boolean(f.search || f.mid || f.ver || f.state || f.from || f.to || f.failing || f.stuck);

function Select({ label, value, onChange, children }: { label: string; value: string; onChange: (value: string) => void; children: React.ReactNode }) {
  const id = useId();
  return (
    <div className={styles.filter}>
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

function DateInput({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  const id = useId();
  return (
    <div className={styles.filter}>
      <label htmlFor={id}>{label}</label>
      <input id={id} type="datetime-local" value={value} onChange={(e) => onChange(e.target.value)} />
    </div>
  );
}

function TextInput({ label, value, onChange, ...rest }: { label: string; value: string; onChange: (value: string) => void } & Omit<React.InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange'>) {
  const id = useId();
  return (
    <div className={styles.filter}>
      <label htmlFor={id}>{label}</label>
      <input id={id} value={value} onChange={(e) => onChange(e.target.value)} {...rest} />
    </div>
  );
}

function Check({ label, checked, onChange }: { label: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className={styles.check}>
      <input type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      {label}
    </label>
  );
}

/** Models to filter by, for the model select and the list's live rooms. */
export function useModelIds(): string[] {
  const models = useApiQuery('models.list', { offset: 0, limit: 100 }, { staleTime: 30_000 });
  return models.data?.rows.map((m) => m.id) ?? [];
}

export function RunsFilters({ value, onChange, models }: { value: RunFilters; onChange: (next: RunFilters) => void; models: string[] }) {
  const set = (key: Exclude<keyof RunFilters, 'stuck'>) => (v: string) => onChange({ ...value, [key]: v });
  const active = anyFilter(value);
  return (
    <form className={styles.filters} role="search" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
      <RunsSearchBox value={value.search} onChange={set('search')} />
      <Select label="Model" value={value.mid} onChange={set('mid')}>
        <option value="">All models</option>
        {/* a model from a shared link that is not among the listed ones */}
        {value.mid && !models.includes(value.mid) ? <option value={value.mid}>{value.mid}</option> : null}
        {models.map((mid) => (
          <option key={mid} value={mid}>
            {mid}
          </option>
        ))}
      </Select>
      <TextInput label="Version" value={value.ver} onChange={(ver) => onChange({ ...value, ver: ver.replace(/\D/g, '') })} inputMode="numeric" placeholder="any" className={styles.short} />
      <Select label="State" value={value.state} onChange={set('state')}>
        <option value="">Any state</option>
        {LISTED_PROC_STATES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
        <option value={ENDED_ON_OUTCOME}>ended on an outcome</option>
      </Select>
      <DateInput label="Started after" value={value.from} onChange={set('from')} />
      <DateInput label="Started before" value={value.to} onChange={set('to')} />
      <TextInput label="Failing node" value={value.failing} onChange={set('failing')} placeholder="node id" maxLength={200} />
      <Check label="Stuck only" checked={value.stuck} onChange={(stuck) => onChange({ ...value, stuck })} />
      {active ? (
        <button type="button" className={styles.clear} onClick={() => onChange(NO_FILTERS)}>
          Clear filters
        </button>
      ) : null}
    </form>
  );
}
