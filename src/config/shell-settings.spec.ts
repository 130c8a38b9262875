import { loadConfig } from './load-config.js';
import { parseUidRange, SHELL_UID_RANGE_DEFAULT } from './shell-settings.js';
import { CLUSTER, configErrorOf } from '../../test/utils/load-config.js';

describe('loadConfig', () => {
  describe('the shell handler (TICKWHEEL_SHELL_*)', () => {
    const SHELL = { TICKWHEEL_ALLOW_SHELL: 'true' };
    const DEFAULT = { lo: 2_000_000_000, hi: 2_000_065_535 };

    it("should run each app's commands as a uid of its own from the default range when the executor is root", () => {
      expect(SHELL_UID_RANGE_DEFAULT).toEqual(DEFAULT);
      expect(loadConfig(SHELL, 0).shell).toEqual({ uidRange: DEFAULT, unisolated: false, envPass: [] });
      expect(loadConfig({}, 0).shell).toMatchObject({ uidRange: DEFAULT });
    });

    it('should take TICKWHEEL_SHELL_UID_RANGE and TICKWHEEL_SHELL_ENV_PASS', () => {
      const c = loadConfig(
        {
          ...SHELL,
          TICKWHEEL_SHELL_UID_RANGE: ' 70000 - 70009 ',
          TICKWHEEL_SHELL_ENV_PASS: ' HTTP_PROXY, PATH,HTTP_PROXY ',
        },
        0,
      );
      expect(c.shell).toEqual({
        uidRange: { lo: 70000, hi: 70009 },
        unisolated: false,
        envPass: ['HTTP_PROXY', 'PATH'],
      });
      expect(loadConfig({ ...SHELL, TICKWHEEL_SHELL_UID_RANGE: '1-1' }, 0).shell.uidRange).toEqual({ lo: 1, hi: 1 });
      const top = `${2 ** 31 - 1}-${2 ** 31 - 1}`;
      expect(loadConfig({ ...SHELL, TICKWHEEL_SHELL_UID_RANGE: top }, 0).shell.uidRange?.hi).toBe(2 ** 31 - 1);
      expect(loadConfig({ ...SHELL, TICKWHEEL_SHELL_UID_RANGE: '65535-65535' }, 0).shell.uidRange?.lo).toBe(65535);
    });

    it.each([
      ['0-10', /starts at 0/],
      [`1-${2 ** 31}`, /ends above 2147483647/],
      ['20-10', /is empty/],
      ['60000-70000', /holds 65534 \(nobody\)/],
      ['65534-65534', /holds 65534/],
      ['1000', /not a range/],
      ['a-b', /not a range/],
      ['-5-10', /not a range/],
      ['1-99999999999', /not a range/],
    ])('should refuse the range %s naming TICKWHEEL_SHELL_UID_RANGE', (range, why) => {
      const err = configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID_RANGE: range }, 0);
      expect(err.field).toBe('TICKWHEEL_SHELL_UID_RANGE');
      expect(err.message).toMatch(why);
      expect(() => parseUidRange(range)).toThrow(why);
    });

    it('should refuse one shared identity (TICKWHEEL_SHELL_UID/GID) without TICKWHEEL_SHELL_UNISOLATED', () => {
      for (const name of ['TICKWHEEL_SHELL_UID', 'TICKWHEEL_SHELL_GID']) {
        const err = configErrorOf({ ...SHELL, [name]: '65534' }, 0);
        expect(err.field).toBe(name);
        expect(err.message).toMatch(/read another's environment/);
        expect(err.message).toContain('TICKWHEEL_SHELL_UID_RANGE');
        expect(err.message).toContain('TICKWHEEL_SHELL_UNISOLATED=true');
      }
      expect(configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '0' }, 0).field).toBe('TICKWHEEL_SHELL_UID');
      // a process that runs no shell commands ignores them
      expect(loadConfig({ ...CLUSTER, ...SHELL, ROLES: 'api', TICKWHEEL_SHELL_UID: '65534' }, 0).allowShell).toBe(true);
    });

    it('should run every app as TICKWHEEL_SHELL_UID/GID (default 65534) with TICKWHEEL_SHELL_UNISOLATED', () => {
      const unisolated = { ...SHELL, TICKWHEEL_SHELL_UNISOLATED: 'true' };
      expect(loadConfig({ ...unisolated, TICKWHEEL_SHELL_UID: '1000', TICKWHEEL_SHELL_GID: '1001' }, 0).shell).toEqual({
        uid: 1000,
        gid: 1001,
        unisolated: true,
        envPass: [],
      });
      expect(loadConfig({ ...unisolated, TICKWHEEL_SHELL_GID: '1001' }, 0).shell).toMatchObject({
        uid: 65534,
        gid: 1001,
      });
      expect(loadConfig({ ...unisolated, TICKWHEEL_SHELL_UID: '0', TICKWHEEL_SHELL_GID: '0' }, 0).shell).toMatchObject({
        uid: 0,
        gid: 0,
        unisolated: true,
      });
      // root without UID/GID: per-app uids even when unisolated
      expect(loadConfig(unisolated, 0).shell.uidRange).toEqual(DEFAULT);
    });

    it('should refuse to start an executor that allows shell as a user other than root, naming the opt-in', () => {
      const err = configErrorOf(SHELL, 1000);
      expect(err.field).toBe('TICKWHEEL_ALLOW_SHELL');
      expect(err.message).toMatch(/runs as uid 1000, not root/);
      expect(err.message).toMatch(/environment .*TICKWHEEL_SECRET_KEY/);
      expect(err.message).toContain('TICKWHEEL_SHELL_UNISOLATED=true');
      expect(configErrorOf({ ...CLUSTER, ...SHELL, ROLES: 'executor' }, 1000).field).toBe('TICKWHEEL_ALLOW_SHELL');
    });

    it('should run commands as this process when not root and TICKWHEEL_SHELL_UNISOLATED=true', () => {
      expect(loadConfig({ ...SHELL, TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).shell).toEqual({
        unisolated: true,
        envPass: [],
      });
    });

    it('should not refuse a non-root process that runs no shell commands (shell off, or no executor role)', () => {
      expect(loadConfig({}, 1000).shell.uid).toBeUndefined();
      expect(loadConfig({ ...CLUSTER, ...SHELL, ROLES: 'api,scheduler' }, 1000).allowShell).toBe(true);
    });

    it('should refuse a uid a non-root process cannot switch to', () => {
      const unisolated = { ...SHELL, TICKWHEEL_SHELL_UNISOLATED: 'true' };
      expect(configErrorOf({ ...unisolated, TICKWHEEL_SHELL_UID: '1001' }, 1000).message).toMatch(
        /TICKWHEEL_SHELL_UID: .*needs root/,
      );
      expect(configErrorOf({ ...unisolated, TICKWHEEL_SHELL_GID: '1001' }, 1000).field).toBe('TICKWHEEL_SHELL_GID');
      expect(configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '1000' }, 1000).field).toBe('TICKWHEEL_SHELL_UID');
    });
  });
});
