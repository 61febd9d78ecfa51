/**
 * CSS modules for tsc. Next's own declaration lives in its global types (next-env.d.ts), which
 * also make `process.env.NODE_ENV` a required key of every env object — wrong for the server and
 * its tests that share this program — so the studio imports `next/types`, never `next` itself.
 */
declare module '*.module.css' {
  const classes: { readonly [key: string]: string };
  export default classes;
}

declare module '*.css';
