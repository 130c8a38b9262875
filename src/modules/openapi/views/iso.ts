/** A time in ms UTC as the API shows it (ISO-8601, Z), null kept. */
export const iso = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());
