/** A fixed-size history of numbers, oldest first; the sparkline series. */
export class RingBuffer {
  private readonly values: number[] = [];

  constructor(private readonly capacity: number) {}

  push(value: number): void {
    this.values.push(value);
    if (this.values.length > this.capacity) this.values.shift();
  }

  toArray(): number[] {
    return [...this.values];
  }

  get length(): number {
    return this.values.length;
  }
}

/** Sparkline points kept per host and per container (a minute at the default 2 s cadence). */
export const SPARKLINE_POINTS = 30;

/** cpu, mem and net series that move together. */
export class SparklineSet {
  readonly cpu = new RingBuffer(SPARKLINE_POINTS);
  readonly mem = new RingBuffer(SPARKLINE_POINTS);
  readonly net = new RingBuffer(SPARKLINE_POINTS);

  push(cpu: number, mem: number, net: number): void {
    this.cpu.push(cpu);
    this.mem.push(mem);
    this.net.push(net);
  }

  toJSON(): { cpu: number[]; mem: number[]; net: number[] } {
    return { cpu: this.cpu.toArray(), mem: this.mem.toArray(), net: this.net.toArray() };
  }
}
