/** How long something has waited, short: "just now", "4 min", "3 h 5 min", "2 d 1 h". */
export function waited(since: number, now: number): string {
  const s = Math.max(0, Math.floor((now - since) / 1000));
  if (s < 60) return 'just now';
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min`;
  const h = Math.floor(m / 60);
  if (h < 24) return m % 60 ? `${h} h ${m % 60} min` : `${h} h`;
  const d = Math.floor(h / 24);
  return h % 24 ? `${d} d ${h % 24} h` : `${d} d`;
}

/** "just now" or "<waited> ago". */
export function ago(since: number, now: number): string {
  const w = waited(since, now);
  return w === 'just now' ? w : `${w} ago`;
}
