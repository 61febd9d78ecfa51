/**
 * The inline <head> script of app/layout.tsx: applies the stored theme choice before anything
 * paints (no flash). Server-safe on purpose: no React here (theme.ts holds the hook).
 */
export const THEME_STORAGE_KEY = 'acts-theme';

export const THEME_SCRIPT = `try{var t=localStorage.getItem('${THEME_STORAGE_KEY}');if(t==='light'||t==='dark')document.documentElement.dataset.theme=t}catch(e){}`;
