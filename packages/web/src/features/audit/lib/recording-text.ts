/** Keys a terminal sends as escape sequences, as a reader knows them. */
const SEQUENCES: [string, string][] = [
  ['\x1b[A', '↑'],
  ['\x1b[B', '↓'],
  ['\x1b[C', '→'],
  ['\x1b[D', '←'],
  ['\x1b[H', '⇱'],
  ['\x1b[F', '⇲'],
  ['\x1b[3~', '⌦'],
  ['\x1bOA', '↑'],
  ['\x1bOB', '↓'],
  ['\x1bOC', '→'],
  ['\x1bOD', '←'],
];

/**
 * What the terminal itself answers the shell (a cursor position report, its device
 * attributes): they travel with the input but nobody typed them.
 */
const TERMINAL_REPLY = /^\[(?:\d+;\d+R|[?>][\d;]*c)/; // after the ESC

/**
 * A recording's input as a reader follows it (the terminal's own replies left out): Enter ends a line (shown as ⏎), Backspace is
 * ⌫, Tab ⇥, arrows and the like their symbols, other control keys ^C-style, and any other
 * escape sequence ⎋ followed by its text. Nothing typed is dropped or run.
 */
export function readableInput(input: string): string {
  let out = '';
  for (let i = 0; i < input.length;) {
    const reply = input[i] === '\x1b' ? TERMINAL_REPLY.exec(input.slice(i + 1, i + 16)) : null;
    if (reply !== null) {
      i += 1 + reply[0].length;
      continue;
    }
    const seq = input[i] === '\x1b' ? SEQUENCES.find(([s]) => input.startsWith(s, i)) : undefined;
    if (seq !== undefined) {
      out += seq[1];
      i += seq[0].length;
      continue;
    }
    const c = input[i] as string;
    const code = c.charCodeAt(0);
    i++;
    if (c === '\r' || c === '\n') out += '⏎\n';
    else if (code === 0x7f || code === 0x08) out += '⌫';
    else if (c === '\t') out += '⇥';
    else if (c === '\x1b') out += '⎋';
    else if (code < 0x20) out += `^${String.fromCharCode(code + 64)}`;
    else out += c;
  }
  return out;
}
