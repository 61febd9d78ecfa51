/**
 * Light and dark themes. Without a stored choice the system's `prefers-color-scheme` rules
 * (CSS `color-scheme: light dark`); a choice is kept in localStorage and set as `data-theme` on
 * <html> — before the first paint by THEME_SCRIPT (theme-script.ts), so there is no flash.
 * State: system (no attribute) → chosen light | dark (attribute + localStorage).
 */
import { useCallback, useSyncExternalStore } from 'react';
import { THEME_STORAGE_KEY } from './theme-script.ts';

export type Theme = 'light' | 'dark';

const CHANGED = 'acts-theme-change';
const DARK_QUERY = '(prefers-color-scheme: dark)';

function current(): Theme {
  const chosen = document.documentElement.dataset.theme;
  if (chosen === 'light' || chosen === 'dark') return chosen;
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

function subscribe(onChange: () => void): () => void {
  const media = window.matchMedia(DARK_QUERY);
  media.addEventListener('change', onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    media.removeEventListener('change', onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function choose(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
  try {
    localStorage.setItem(THEME_STORAGE_KEY, theme);
  } catch {
    // storage may be unavailable (private mode); the choice then lasts for this page only
  }
  window.dispatchEvent(new Event(CHANGED));
}

/** The theme in effect (null during server rendering) and a toggle that remembers the choice. */
export function useTheme(): { theme: Theme | null; toggle: () => void } {
  const theme = useSyncExternalStore(subscribe, current, () => null);
  const toggle = useCallback(() => choose(current() === 'dark' ? 'light' : 'dark'), []);
  return { theme, toggle };
}
