import { loadConfig } from './load-config.js';
import { CLUSTER, configErrorOf } from '../../test/utils/load-config.js';

describe('loadConfig', () => {
  describe('the shell handler (TICKWHEEL_SHELL_*)', () => {
    const SHELL = { TICKWHEEL_ALLOW_SHELL: 'true' };

    it('should run commands as 65534:65534 with no extra variables when the executor is root', () => {
      expect(loadConfig(SHELL, 0).shell).toEqual({ uid: 65534, gid: 65534, unisolated: false, envPass: [] });
      expect(loadConfig({}, 0).shell).toMatchObject({ uid: 65534, gid: 65534 });
    });

    it('should take TICKWHEEL_SHELL_UID/GID and TICKWHEEL_SHELL_ENV_PASS', () => {
      const c = loadConfig(
        {
          ...SHELL,
          TICKWHEEL_SHELL_UID: '1000',
          TICKWHEEL_SHELL_GID: '1001',
          TICKWHEEL_SHELL_ENV_PASS: ' HTTP_PROXY, NO_PROXY,HTTP_PROXY ',
        },
        0,
      );
      expect(c.shell).toEqual({ uid: 1000, gid: 1001, unisolated: false, envPass: ['HTTP_PROXY', 'NO_PROXY'] });
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
        uid: undefined,
        gid: undefined,
        unisolated: true,
        envPass: [],
      });
    });

    it('should not refuse a non-root process that runs no shell commands (shell off, or no executor role)', () => {
      expect(loadConfig({}, 1000).shell.uid).toBeUndefined();
      expect(loadConfig({ ...CLUSTER, ...SHELL, ROLES: 'api,scheduler' }, 1000).allowShell).toBe(true);
    });

    it("should refuse a uid a non-root process cannot switch to, and this process's own uid", () => {
      expect(
        configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '1001', TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).message,
      ).toMatch(/TICKWHEEL_SHELL_UID: .*needs root/);
      expect(
        configErrorOf({ ...SHELL, TICKWHEEL_SHELL_GID: '1001', TICKWHEEL_SHELL_UNISOLATED: 'true' }, 1000).field,
      ).toBe('TICKWHEEL_SHELL_GID');
      expect(configErrorOf({ ...SHELL, TICKWHEEL_SHELL_UID: '1000' }, 1000).message).toMatch(/own uid/);
    });

    it('should let an explicit TICKWHEEL_SHELL_UNISOLATED=true run commands as root', () => {
      expect(
        loadConfig(
          { ...SHELL, TICKWHEEL_SHELL_UID: '0', TICKWHEEL_SHELL_GID: '0', TICKWHEEL_SHELL_UNISOLATED: 'yes' },
          0,
        ).shell,
      ).toMatchObject({ uid: 0, gid: 0, unisolated: true });
    });
  });
});
