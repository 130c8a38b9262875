import { mkdtempSync, chmodSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../config/index.js';
import { checkRunAs, ShellJobHandler } from './shell.handler.js';

describe('ShellJobHandler start-up checks', () => {
  describe('checkRunAs', () => {
    it('should run isolated as another uid when this process is root', () => {
      expect(checkRunAs(65534, false, 0)).toBe(true);
    });

    it('should refuse a uid this process cannot switch to (not root), even unisolated', () => {
      expect(() => checkRunAs(65534, false, 1000)).toThrow(ConfigError);
      expect(() => checkRunAs(65534, true, 1000)).toThrow(/TICKWHEEL_SHELL_UID.*cannot switch users/);
    });

    it('should refuse to run commands as this process or as root without TICKWHEEL_SHELL_UNISOLATED', () => {
      expect(() => checkRunAs(undefined, false, 1000)).toThrow(/TICKWHEEL_ALLOW_SHELL.*TICKWHEEL_SHELL_UNISOLATED/);
      expect(() => checkRunAs(0, false, 0)).toThrow(ConfigError);
      expect(checkRunAs(undefined, true, 1000)).toBe(false);
      expect(checkRunAs(0, true, 0)).toBe(false);
    });
  });

  const asRoot = process.geteuid?.() === 0 ? it : it.skip;
  asRoot('should make a standalone DATA_DIR owner-only when commands run as another user', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-shell-datadir-'));
    try {
      chmodSync(dir, 0o755);
      new ShellJobHandler(loadConfig({ DATA_DIR: dir, TICKWHEEL_ALLOW_SHELL: 'true' }, 0)).onModuleInit();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
