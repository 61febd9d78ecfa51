/**
 * A line diff of two texts (no diff library is installed; this is our own Myers O(ND) shortest
 * edit script). Above `maxEdits` differences it gives up on alignment and reports the old text
 * removed and the new one added, so a diff of two unrelated 256 KiB documents stays cheap.
 */

export interface DiffLine {
  op: 'same' | 'add' | 'del';
  text: string;
  /** 1-based line numbers in the old / new text (absent for the side a line is not in). */
  a?: number;
  b?: number;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** The furthest-reaching x per diagonal after each edit count d (Myers' V arrays). */
function trace(a: string[], b: string[], maxEdits: number): Int32Array[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxEdits);
  const offset = max + 1;
  let v = new Int32Array(2 * max + 3);
  const history: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    history.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        history.push(v);
        return history;
      }
    }
    v = v.slice();
  }
  return null;
}

function backtrack(a: string[], b: string[], history: Int32Array[]): DiffLine[] {
  const out: DiffLine[] = [];
  const offset = (history[0].length - 3) / 2 + 1;
  let x = a.length;
  let y = b.length;
  for (let d = history.length - 2; d >= 0; d--) {
    const v = history[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : v[offset + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      out.push({ op: 'same', text: a[x], a: x + 1, b: y + 1 });
    }
    if (d === 0) break;
    if (x === prevX) out.push({ op: 'add', text: b[prevY], b: prevY + 1 });
    else out.push({ op: 'del', text: a[prevX], a: prevX + 1 });
    x = prevX;
    y = prevY;
  }
  return out.reverse();
}

/** The lines of `before` and `after` as same / del / add, in order. */
export function lineDiff(before: string, after: string, maxEdits = 4000): DiffLine[] {
  const a = splitLines(before);
  const b = splitLines(after);
  const history = trace(a, b, maxEdits);
  if (history) return backtrack(a, b, history);
  return [...a.map((text, i): DiffLine => ({ op: 'del', text, a: i + 1 })), ...b.map((text, i): DiffLine => ({ op: 'add', text, b: i + 1 }))];
}
