/**
 * The one plain line a person at the terminal reads when the server is ready (the log lines are
 * JSON on stdout; this goes to stderr, so log collectors parsing stdout never meet it): the URL to
 * open — on an address that listens everywhere, the loopback one a browser on this machine opens.
 */
export function readyLine(address: { address: string; port: number }, studio: boolean): string {
  const everywhere = address.address === '0.0.0.0' || address.address === '::';
  const host = everywhere ? '127.0.0.1' : address.address.includes(':') ? `[${address.address}]` : address.address;
  const what = studio ? 'the studio and its API' : 'the API (the studio is off: ACTS_STUDIO)';
  return `acts-studio is ready: open http://${host}:${address.port} — ${what}${everywhere ? ', listening on every interface' : ''}\n`;
}
