import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../../../common/index.js';
import { nextFireTimes } from './cron-schedule.js';
import { CRON_TZ_REASON, parseCrontab, VARIABLE_REASON, type CrontabParseResult } from './crontab-parser.js';

const CRONTABS = path.resolve(process.cwd(), 'test/fixtures/crontabs');
const crontabFiles = readdirSync(CRONTABS).filter((name) => !name.endsWith('.md'));
const parseFile = (name: string, timeZone?: string) =>
  parseCrontab(readFileSync(path.join(CRONTABS, name), 'utf8'), { fileName: path.join(CRONTABS, name), timeZone });
const isos = (times: number[]) => times.map((t) => new Date(t).toISOString().replace('.000Z', 'Z'));
const reasonAt = (result: CrontabParseResult, lineNo: number) =>
  result.rejected.find((r) => r.lineNo === lineNo)?.reason;

describe(parseCrontab.name, () => {
  describe('the Debian cron.d files in test/fixtures/crontabs', () => {
    it('should find the files', () => {
      expect(crontabFiles).toEqual(expect.arrayContaining(['anacron', 'mdadm', 'sysstat']));
    });

    it.each(crontabFiles)('should account for every non-comment line of %s exactly once', (name) => {
      const lines = readFileSync(path.join(CRONTABS, name), 'utf8').split(/\r?\n/);
      const significant = lines.flatMap((line, i) =>
        line.trim() === '' || line.trim().startsWith('#') ? [] : [i + 1],
      );
      const sut = parseFile(name);
      const seen = [...sut.entries.map((e) => e.lineNo), ...sut.rejected.map((r) => r.lineNo)].sort((a, b) => a - b);
      expect(seen).toEqual(significant);
      expect(sut.entries.length).toBeGreaterThan(0);
    });

    it.each(crontabFiles)('should give strictly increasing next fire times for every entry of %s', (name) => {
      for (const entry of parseFile(name).entries) {
        const fires = nextFireTimes(entry.cronExpression, 'UTC', Date.parse('2026-01-01T00:00:00Z'), 3);
        expect(fires).toHaveLength(3);
        expect(fires[0]).toBeGreaterThan(Date.parse('2026-01-01T00:00:00Z'));
        expect(fires[1]).toBeGreaterThan(fires[0]);
        expect(fires[2]).toBeGreaterThan(fires[1]);
      }
    });

    it('should read sysstat as two entries under its PATH when parsing sysstat', () => {
      const sut = parseFile('sysstat');
      const path = '/usr/lib/sysstat:/usr/sbin:/usr/sbin:/usr/bin:/sbin:/bin';
      expect(sut.rejected).toEqual([{ lineNo: 3, line: `PATH=${path}`, reason: VARIABLE_REASON }]);
      expect(sut.entries).toEqual([
        {
          lineNo: 6,
          code: 'sysstat-L6',
          cronExpression: '5-55/10 * * * *',
          user: 'root',
          command: 'command -v debian-sa1 > /dev/null && debian-sa1 1 1',
          timeZone: 'UTC',
          env: { PATH: path },
        },
        {
          lineNo: 9,
          code: 'sysstat-L9',
          cronExpression: '59 23 * * *',
          user: 'root',
          command: 'command -v debian-sa1 > /dev/null && debian-sa1 60 2',
          timeZone: 'UTC',
          env: { PATH: path },
        },
      ]);
      const after = Date.parse('2026-01-01T10:00:00Z');
      expect(isos(nextFireTimes(sut.entries[0].cronExpression, 'UTC', after, 3))).toEqual([
        '2026-01-01T10:05:00Z',
        '2026-01-01T10:15:00Z',
        '2026-01-01T10:25:00Z',
      ]);
      expect(isos(nextFireTimes(sut.entries[1].cronExpression, 'UTC', after, 2))).toEqual([
        '2026-01-01T23:59:00Z',
        '2026-01-02T23:59:00Z',
      ]);
    });

    it("should turn cron's escaped \\% into a literal % when parsing mdadm", () => {
      const sut = parseFile('mdadm');
      expect(sut.rejected).toEqual([]);
      expect(sut.entries).toHaveLength(1);
      const [entry] = sut.entries;
      expect(entry).toMatchObject({
        lineNo: 12,
        code: 'mdadm-L12',
        cronExpression: '57 0 * * 0',
        user: 'root',
        env: {},
      });
      expect(entry.command).toContain('[ $(date +%d) -le 7 ]');
      expect(entry.command).not.toContain('\\%');
      const fires = nextFireTimes(entry.cronExpression, 'UTC', Date.parse('2026-01-01T00:00:00Z'), 2);
      expect(isos(fires)).toEqual(['2026-01-04T00:57:00Z', '2026-01-11T00:57:00Z']);
    });

    it('should keep a tab-separated command and both variables when parsing anacron in Europe/Berlin', () => {
      const sut = parseFile('anacron', 'Europe/Berlin');
      expect(sut.rejected.map((r) => [r.lineNo, r.reason])).toEqual([
        [3, VARIABLE_REASON],
        [4, VARIABLE_REASON],
      ]);
      expect(sut.entries).toHaveLength(1);
      const [entry] = sut.entries;
      expect(entry).toMatchObject({ lineNo: 6, code: 'anacron-L6', cronExpression: '30 7-23 * * *', user: 'root' });
      expect(entry.command.startsWith('[ -x /etc/init.d/anacron ] && if')).toBe(true);
      expect(entry.env).toEqual({
        SHELL: '/bin/sh',
        PATH: '/usr/local/sbin:/usr/local/bin:/sbin:/bin:/usr/sbin:/usr/bin',
      });
      const fires = nextFireTimes(entry.cronExpression, 'Europe/Berlin', Date.parse('2026-01-01T22:00:00Z'), 3);
      expect(isos(fires)).toEqual(['2026-01-01T22:30:00Z', '2026-01-02T06:30:00Z', '2026-01-02T07:30:00Z']);
    });

    it('should apply MAILTO to the */5 entry after it when parsing munin-node', () => {
      const sut = parseFile('munin-node');
      expect(sut.entries).toHaveLength(1);
      expect(sut.entries[0]).toMatchObject({ lineNo: 11, cronExpression: '*/5 * * * *', env: { MAILTO: 'root' } });
    });
  });

  describe('line kinds', () => {
    const file = [
      '# comment',
      '',
      'MAILTO=""',
      "GREETING = 'hello world'",
      '@daily root /bin/daily',
      '@reboot root /bin/boot',
      '@every_hour root /bin/x',
      '@weekly',
      '0 0 * * * root printf "%s\\n" x',
      '0 0 * *  root /bin/too-few',
      '0 0 30 2 * root /bin/feb30',
      '0 0 * * * * root /bin/seconds',
      '  15 4 * * mon-fri   backup   /usr/bin/backup --all  ',
      '\t# indented comment',
      '@annually nobody /bin/yearly\r',
    ].join('\n');
    const sut = parseCrontab(file, { fileName: '/etc/cron.d/my jobs' });

    it('should expand macros and keep the command verbatim when lines are valid', () => {
      expect(sut.entries.map((e) => [e.lineNo, e.code, e.cronExpression, e.user, e.command])).toEqual([
        [5, 'my_jobs-L5', '0 0 * * *', 'root', '/bin/daily'],
        [13, 'my_jobs-L13', '15 4 * * mon-fri', 'backup', '/usr/bin/backup --all'],
        [15, 'my_jobs-L15', '0 0 1 1 *', 'nobody', '/bin/yearly'],
      ]);
    });

    it('should unquote variables and apply them to later entries only', () => {
      expect(reasonAt(sut, 3)).toBe(VARIABLE_REASON);
      expect(reasonAt(sut, 4)).toBe(VARIABLE_REASON);
      expect(sut.entries[0].env).toEqual({ MAILTO: '', GREETING: 'hello world' });
    });

    it('should reject @reboot, unknown macros, a bare %, and bad schedules with a reason', () => {
      expect(reasonAt(sut, 6)).toMatch(/no boot event/);
      expect(reasonAt(sut, 7)).toMatch(/unknown macro '@every_hour'/);
      expect(reasonAt(sut, 8)).toMatch(/@weekly USER COMMAND/);
      expect(reasonAt(sut, 9)).toMatch(/'%' in the command is not supported/);
      expect(reasonAt(sut, 10)).toMatch(/five time fields, a user and a command/);
      expect(reasonAt(sut, 11)).toMatch(/never/);
      expect(reasonAt(sut, 12)).toMatch(/invalid user '\*'/);
      expect(sut.rejected.find((r) => r.lineNo === 9)?.line).toBe('0 0 * * * root printf "%s\\n" x');
    });

    it('should account for every line when comments and blanks are set aside', () => {
      const accounted = [...sut.entries.map((e) => e.lineNo), ...sut.rejected.map((r) => r.lineNo)].sort(
        (a, b) => a - b,
      );
      expect(accounted).toEqual([3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 15]);
    });

    it('should throw a ValidationError naming timeZone when the zone is unknown', () => {
      const parse = () => parseCrontab('', { fileName: 'x', timeZone: 'Mars/Olympus' });
      expect(parse).toThrow(ValidationError);
      expect(parse).toThrow(expect.objectContaining({ field: 'timeZone' }));
    });
  });

  describe('CRON_TZ', () => {
    it('should read the entries after a CRON_TZ line in that zone, not pass it on as a variable', () => {
      const content = ['0 1 * * * root /bin/echo before', 'CRON_TZ=Asia/Tokyo', '0 1 * * * root /bin/echo after'].join(
        '\n',
      );
      const { entries, rejected } = parseCrontab(content, { fileName: 'tz', timeZone: 'Europe/London' });
      expect(entries.map((e) => [e.lineNo, e.timeZone])).toEqual([
        [1, 'Europe/London'],
        [3, 'Asia/Tokyo'],
      ]);
      expect(entries[1].env.CRON_TZ).toBeUndefined();
      expect(rejected).toEqual([{ lineNo: 2, line: 'CRON_TZ=Asia/Tokyo', reason: CRON_TZ_REASON }]);
    });

    it('should refuse the whole file, naming the line, when CRON_TZ is not a zone', () => {
      const parse = () => parseCrontab('CRON_TZ=Mars/Olympus\n0 1 * * * root /bin/true', { fileName: 'tz' });
      expect(parse).toThrow(
        expect.objectContaining({ field: 'content', message: expect.stringMatching(/line 1: CRON_TZ=Mars\/Olympus/) }),
      );
    });
  });
});
