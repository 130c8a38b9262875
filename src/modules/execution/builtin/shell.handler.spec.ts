import { mkdtempSync, chmodSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from '../../../config/index.js';
import { JobFailure, type JobContext } from '../../handler/index.js';
import { OWNERLESS_APP_ID } from '../../metadata/index.js';
import { rejection } from '../../../../test/utils/async.js';
import { DEFAULT_SHELL_PATH } from './shell-env.js';
import { firstAccountIn, firstUnmapped, ShellIdentities, ShellIdentityError } from './shell-identities.js';
import { checkRunAs, ShellJobHandler } from './shell.handler.js';

const RANGE = { lo: 2_000_000_000, hi: 2_000_065_535 };
const asRoot = process.geteuid?.() === 0 ? it : it.skip;

/** ShellIdentities answering `uidOf` with `answer` (a uid, or an error to throw). */
function identities(answer: number | Error): ShellIdentities {
  return {
    uidOf: async () => {
      if (answer instanceof Error) throw answer;
      return answer;
    },
  } as unknown as ShellIdentities;
}

/** A context with just what the shell handler reads. */
const ctx = (appId: string, params: unknown) =>
  ({ appId, params, signal: new AbortController().signal }) as unknown as JobContext;

describe('ShellJobHandler start-up checks', () => {
  describe('checkRunAs', () => {
    it("should run each app's commands as its own uid when this process is root", () => {
      expect(checkRunAs({ uidRange: RANGE, unisolated: false }, 0)).toBe('per-app');
      expect(checkRunAs({ uidRange: RANGE, unisolated: true }, 0)).toBe('per-app');
    });

    it('should refuse per-app uids, or a uid this process cannot switch to, when not root', () => {
      expect(() => checkRunAs({ uidRange: RANGE, unisolated: false }, 1000)).toThrow(/TICKWHEEL_SHELL_UID_RANGE/);
      expect(() => checkRunAs({ uid: 65534, unisolated: true }, 1000)).toThrow(
        /TICKWHEEL_SHELL_UID.*cannot switch users/,
      );
    });

    it('should run one identity for every app only with TICKWHEEL_SHELL_UNISOLATED', () => {
      expect(() => checkRunAs({ uid: 65534, unisolated: false }, 0)).toThrow(ConfigError);
      expect(() => checkRunAs({ unisolated: false }, 1000)).toThrow(
        /TICKWHEEL_ALLOW_SHELL.*TICKWHEEL_SHELL_UNISOLATED/,
      );
      expect(checkRunAs({ uid: 65534, unisolated: true }, 0)).toBe('shared');
      expect(checkRunAs({ unisolated: true }, 1000)).toBe('own');
      expect(checkRunAs({ uid: 0, unisolated: true }, 0)).toBe('own');
    });
  });

  describe('firstUnmapped (user namespace maps)', () => {
    it('should find every id of the range in a map, or name the first one missing', () => {
      expect(firstUnmapped(RANGE, '         0          0 4294967295\n')).toBeNull();
      expect(firstUnmapped(RANGE, '0 100000 65536\n')).toBe(RANGE.lo);
      expect(firstUnmapped({ lo: 40000, hi: 59999 }, '0 100000 65536\n')).toBeNull();
      expect(firstUnmapped({ lo: 10, hi: 30 }, '0 1000 20\n20 5000 5\n')).toBe(25);
      expect(firstUnmapped({ lo: 10, hi: 30 }, '25 5000 10\n0 1000 25\n')).toBeNull();
      expect(firstUnmapped({ lo: 10, hi: 30 }, '')).toBe(10);
    });
  });

  describe('firstAccountIn (/etc/passwd, /etc/group)', () => {
    const passwd =
      'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1::/usr/sbin:/usr/sbin/nologin\n#c:x:7:7\n' +
      'nobody:x:65534:65534::/nonexistent:/usr/sbin/nologin\n';
    it('should name the first account whose id the range holds, or none', () => {
      expect(firstAccountIn({ lo: 1, hi: 5 }, passwd)).toBe('daemon (1)');
      expect(firstAccountIn({ lo: 65000, hi: 65535 }, passwd)).toBe('nobody (65534)');
      expect(firstAccountIn(RANGE, passwd)).toBeNull();
      expect(firstAccountIn({ lo: 2, hi: 6 }, passwd)).toBeNull();
      expect(firstAccountIn({ lo: 1, hi: 5 }, '')).toBeNull();
    });
  });

  asRoot('should make a standalone DATA_DIR owner-only when commands run as another user', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tw-shell-datadir-'));
    try {
      chmodSync(dir, 0o755);
      const config = loadConfig({ DATA_DIR: dir, TICKWHEEL_ALLOW_SHELL: 'true' }, 0);
      new ShellJobHandler(config, identities(RANGE.lo)).onModuleInit();
      expect(statSync(dir).mode & 0o777).toBe(0o700);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('ShellJobHandler per-app identities', () => {
  const CLUSTER = {
    DB_URL: 'mysql://u@127.0.0.1/x',
    REDIS_URL: 'redis://127.0.0.1',
    TICKWHEEL_SECRET_KEY: 'a'.repeat(64),
  };
  const handler = (answer: number | Error) => {
    const h = new ShellJobHandler(loadConfig({ ...CLUSTER, TICKWHEEL_ALLOW_SHELL: 'true' }, 0), identities(answer));
    h.onModuleInit();
    return h;
  };
  const probe = { argv: ['/bin/sh', '-c', 'id -u; id -g; id -G; umask; echo "$HOME"; echo "$PATH"'] };

  asRoot("should run the command as the app's uid and gid, umask 077, HOME / and the fixed PATH", async () => {
    const uid = RANGE.lo + 7;
    const r = await handler(uid).execute(ctx('app-x', probe));
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${uid}\n${uid}\n${uid}\n0077\n/\n${DEFAULT_SHELL_PATH}\n`);
  });

  asRoot('should fail the run, not retried, naming the setting when the app has no usable uid', async () => {
    const full = new ShellIdentityError(`TICKWHEEL_SHELL_UID_RANGE ${RANGE.lo}-${RANGE.hi} is full`);
    const e = await rejection(handler(full).execute(ctx('app-x', probe)));
    expect(e).toBeInstanceOf(JobFailure);
    expect((e as JobFailure).retryable).toBe(false);
    expect(e.message).toMatch(/TICKWHEEL_SHELL_UID_RANGE .* is full/);
  });

  asRoot('should not run a fire without an owner app, and retry a database error', async () => {
    const e = await rejection(handler(RANGE.lo).execute(ctx(OWNERLESS_APP_ID, probe)));
    expect(e).toBeInstanceOf(JobFailure);
    expect((e as JobFailure).retryable).toBe(false);
    const db = await rejection(handler(new Error('connection lost')).execute(ctx('app-x', probe)));
    expect(db).not.toBeInstanceOf(JobFailure);
  });
});
