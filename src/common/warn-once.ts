/**
 * A background loop's warnings at most once a minute per distinct message: a database outage fails every pass,
 * and one line a minute says so as well as hundreds. Remembers at most 100 messages (then starts over).
 */
export class WarnOnce {
  private readonly warned = new Map<string, number>();

  /** @param sink where a warning goes (a Nest Logger's `warn`). */
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
