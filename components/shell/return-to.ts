/**
 * Where to go after signing in: the page that sent the user to /login, passed as `?next=`.
 * Only a path on this site is accepted (never `//host` or `https://…`), else `/`.
 */
export function loginHref(pathname: string, search: string): string {
  const here = `${pathname}${search}`;
  return here === '/' || pathname === '/login' ? '/login' : `/login?next=${encodeURIComponent(here)}`;
}

export function safeNext(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return '/';
  return next;
}
