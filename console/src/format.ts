/** How the console writes times, durations and schedules. Times from the API are ISO-8601 UTC. */
import cronstrue from 'cronstrue';

/** `iso` as local date and time to the second (the viewer's zone), or '–'. */
export function when(iso: string | null | undefined): string {
  if (!iso) return '–';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
  return `${date} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** `ms` in the largest fitting units: 850 ms, 12.3 s, 4 min 05 s, 2 h 03 min; '–' for null. */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, '0')} min`;
}

/** Time between two ISO instants, ms (null when either is missing). */
export function between(from: string | null | undefined, to: string | null | undefined): number | null {
  return from && to ? Date.parse(to) - Date.parse(from) : null;
}

/** How long ago `iso` was, in words ('4 s ago'). */
export function ago(iso: string | null | undefined, now = Date.now()): string {
  return iso ? `${duration(Math.max(0, now - Date.parse(iso)))} ago` : '–';
}

/** A job's schedule in words: cron via cronstrue (seconds too), periods in words, a one-shot's instant. */
export function scheduleWords(triggerType: string, expr: string | null, zone: string): string {
  if (expr === null) return '–';
  switch (triggerType) {
    case 'CRON':
      try {
        return `${cronstrue.toString(expr, { use24HourTimeFormat: true, verbose: false })} (${zone})`;
      } catch {
        return `${expr} (${zone})`;
      }
    case 'FIXED_RATE':
      return `Every ${duration(Number(expr))}`;
    case 'FIXED_DELAY':
      return `${duration(Number(expr))} after each run ends`;
    case 'ONE_SHOT':
      return `Once at ${when(expr)}`;
    default:
      return expr;
  }
}

/** Statuses by outcome, for colours and charts. */
export const OUTCOME_COLOURS: Record<string, string> = {
  SUCCESS: '#2e7d32',
  FAILED: '#c62828',
  TIMEOUT: '#ef6c00',
  CANCELLED: '#757575',
  RUNNING: '#1565c0',
  DISPATCHED: '#5e35b1',
  PENDING: '#9e9d24',
  WAITING: '#8d6e63',
};

/** Colours of every other status word the console shows: job states, callback states, attempt endings. */
export const STATE_COLOURS: Record<string, string> = {
  ...OUTCOME_COLOURS,
  ENABLED: '#2e7d32',
  PAUSED: '#757575',
  ERROR: '#c62828',
  DELIVERED: '#2e7d32',
  RETRYING: '#ef6c00',
  CALLBACK_FAILED: '#c62828',
  HANDED_BACK: '#5e35b1',
  NODE_LOST: '#ad1457',
  LEASE_LOST: '#ad1457',
};

/** A datetime-local value (the viewer's zone) as an ISO-8601 instant with Z; undefined when empty. */
export function instant(local: string | null | undefined): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}
