/** A background loop's warnings at most once a minute per message (an outage fails every pass); keeps 100. */
export class WarnOnce {
  private readonly warned = new Map<string, number>();

  constructor(private readonly sink: (message: string) => void) {}

  /** Warns `message` unless it was warned within 60 s before `now` (epoch ms). */
  warn(message: string, now: number): void {
    const last = this.warned.get(message);
    if (last !== undefined && now - last < 60_000) return;
    if (this.warned.size >= 100) this.warned.clear();
    this.warned.set(message, now);
    this.sink(message);
  }
}
