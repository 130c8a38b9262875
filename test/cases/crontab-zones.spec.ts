/**
 * Real Debian cron.d files (test/fixtures/crontabs): every entry is imported with parseCrontab, and its
 * next 5 fires in Europe/London and Australia/Lord_Howe (30-minute DST) are checked against the
 * brute-force reference, starting just before each 2026 clock change (10 minutes and one day before).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { parseCrontab, VARIABLE_REASON } from '../../src/modules/trigger/schedule/crontab-parser.js';
import { nextFireTimes } from '../../src/modules/trigger/schedule/cron-schedule.js';
import { referenceNextFires, transitions } from './cron-reference.js';

const DIR = new URL('../fixtures/crontabs/', import.meta.url);
const ZONES = ['Europe/London', 'Australia/Lord_Howe'];
const BEFORE_CHANGE_MS = [10 * 60_000, 86_400_000];
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString());

const FILES = readdirSync(DIR)
  .filter((f) => f !== 'README.md')
  .sort();
const ENTRIES = FILES.flatMap((file) =>
  ZONES.flatMap((zone) => {
    const parsed = parseCrontab(readFileSync(new URL(file, DIR), 'utf8'), { fileName: file, timeZone: zone });
    return parsed.entries.map((e) => ({
      file,
      zone,
      lineNo: e.lineNo,
      expr: e.cronExpression,
      rejected: parsed.rejected,
    }));
  }),
);

describe('crontabs from test/fixtures/crontabs across DST changes', () => {
  it('should import every job line of every file (only variable lines are set aside)', () => {
    expect(FILES).toEqual(['anacron', 'certbot', 'e2scrub_all', 'mdadm', 'munin-node', 'ntpsec', 'sysstat']);
    for (const { rejected } of ENTRIES) expect(rejected.filter((r) => r.reason !== VARIABLE_REASON)).toEqual([]);
    const perZone = ENTRIES.filter((e) => e.zone === ZONES[0]).map((e) => `${e.file}:${e.lineNo} ${e.expr}`);
    expect(perZone).toEqual([
      'anacron:6 30 7-23 * * *',
      'certbot:17 0 */12 * * *',
      'e2scrub_all:1 30 3 * * 0',
      'e2scrub_all:2 10 3 * * *',
      'mdadm:12 57 0 * * 0',
      'munin-node:11 */5 * * * *',
      'ntpsec:1 25 6 * * *',
      'sysstat:6 5-55/10 * * * *',
      'sysstat:9 59 23 * * *',
    ]);
  });

  it.each(ENTRIES.map((e) => [`${e.file}:${e.lineNo}`, e.expr, e.zone]))(
    '%s `%s` in %s: next 5 fires match the reference',
    (_at, expr, zone) => {
      const changes = transitions(zone, Date.UTC(2026, 0, 1), Date.UTC(2027, 0, 1));
      expect(changes).toHaveLength(2);
      for (const change of changes) {
        for (const before of BEFORE_CHANGE_MS) {
          const start = change.at - before;
          const expected = referenceNextFires(expr, zone, start, 5);
          expect({ start: isos([start])[0], fires: isos(nextFireTimes(expr, zone, start, 5)) }).toEqual({
            start: isos([start])[0],
            fires: isos(expected),
          });
        }
      }
    },
  );
});
