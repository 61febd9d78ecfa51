/**
 * The runs list's search box: a run id (or its start), a business key or an input value
 * (`processes.list` `search`). State: the text being typed, local so typing never waits; it is
 * handed on `SEARCH_DEBOUNCE_MS` after the last key (Enter hands it on at once), and taken over
 * again when the search changes from outside (a shared link, back/forward, Clear filters).
 */
'use client';
import { useEffect, useId, useRef, useState } from 'react';
import styles from './runs.module.css';

export const SEARCH_DEBOUNCE_MS = 300;

export function RunsSearchBox({ value, onChange }: { value: string; onChange: (search: string) => void }) {
  const id = useId();
  const [text, setText] = useState(value);
  const handedOn = useRef(value);
  // a search changed from outside replaces the text
  if (value !== handedOn.current) {
    handedOn.current = value;
    if (text.trim() !== value) setText(value);
  }
  const latest = useRef(onChange);
  latest.current = onChange;

  const handOn = (next: string) => {
    const search = next.trim();
    if (search === handedOn.current) return;
    handedOn.current = search;
    latest.current(search);
  };

  useEffect(() => {
    const timer = setTimeout(() => handOn(text), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]); // eslint-disable-line react-hooks/exhaustive-deps

  return (
    <div className={`${styles.filter} ${styles.search}`}>
      <label htmlFor={id}>Search</label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={200}
        placeholder="Run id, business key or input value"
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') handOn(text);
        }}
      />
    </div>
  );
}
