/**
 * Splits a byte stream into '\n'-terminated lines and never holds more than `maxLineBytes`
 * of one line: a longer line is dropped whole (counted) and reading resumes after its end.
 */
export class CappedLines {
  private parts: Buffer[] = [];
  private size = 0;
  private discarding = false;
  /** Lines dropped for being over the cap. */
  dropped = 0;

  constructor(
    private readonly maxLineBytes: number,
    private readonly onDrop: (dropped: number) => void = () => undefined,
  ) {}

  /** The lines `chunk` completes (without '\n' or a trailing '\r'). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.take(chunk.subarray(start, nl));
      const line = this.finish();
      if (line !== null) lines.push(line);
      start = nl + 1;
    }
    this.take(chunk.subarray(start));
    return lines;
  }

  private take(piece: Buffer): void {
    if (this.discarding || piece.length === 0) return;
    if (this.size + piece.length > this.maxLineBytes) {
      this.discarding = true;
      this.parts = [];
      this.size = 0;
      return;
    }
    this.parts.push(piece);
    this.size += piece.length;
  }

  private finish(): string | null {
    if (this.discarding) {
      this.discarding = false;
      this.onDrop(++this.dropped);
      return null;
    }
    const line = Buffer.concat(this.parts, this.size).toString('utf8');
    this.parts = [];
    this.size = 0;
    return line.endsWith('\r') ? line.slice(0, -1) : line;
  }
}
