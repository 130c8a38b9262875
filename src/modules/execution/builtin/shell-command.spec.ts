import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ValidationError } from '../../../common/index.js';
import { never, rejection, waitFor } from '../../../../test/utils/async.js';
import { processGone } from '../../../../test/utils/pid.js';
import { runShellCommand } from './shell-command.js';
import { DEFAULT_SHELL_PATH, passwdHome, shellBaseEnv } from './shell-env.js';

/** `env` output as an object. */
function envOf(stdout: string): Record<string, string> {
  return Object.fromEntries(
    stdout
      .trim()
      .split('\n')
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/** Switching users needs root: these cases run only as root (CI runs as root; a developer's shell may not). */
const asRoot = process.geteuid?.() === 0 ? it : it.skip;
const NOBODY = 65534;

/** Waits (up to 5 s: a SIGKILL is delivered asynchronously) until `pid` no longer runs; throws when it still does. */
const expectGone = (pid: number) => waitFor(`pid ${pid} to be gone`, async () => processGone(pid), 5000, 20);

describe('runShellCommand', () => {
  it('should run a program with its arguments verbatim (no shell)', async () => {
    const r = await runShellCommand({ argv: ['/bin/echo', 'hello', '$HOME', '*', 'a b'] }, never());
    expect(r.exitCode).toBe(0);
    expect(r.signal).toBeNull();
    expect(r.stdout).toBe('hello $HOME * a b\n');
    expect(r.stderr).toBe('');
    expect(r.stdoutTruncated).toBe(false);
    expect(r.stderrTruncated).toBe(false);
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('should find the program on PATH', async () => {
    const r = await runShellCommand({ argv: ['echo', 'on-path'] }, never());
    expect(r.stdout).toBe('on-path\n');
  });

  it('should return a non-zero exit code instead of throwing', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'exit 3'] }, never());
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
  });

  it('should capture stderr separately', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'echo out; echo err >&2'] }, never());
    expect(r.stdout).toBe('out\n');
    expect(r.stderr).toBe('err\n');
  });

  it('should report the signal that ended the process', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'kill -KILL $$'] }, never());
    expect(r.exitCode).toBeNull();
    expect(r.signal).toBe('SIGKILL');
  });

  it('should return soon after exit even if a grandchild that left the group (setsid) keeps stdout open', async () => {
    const t0 = Date.now();
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'setsid sleep 3 & echo hi'] }, never());
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe('hi\n');
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('should keep only the first 64 KiB of a large output and mark it truncated', async () => {
    const r = await runShellCommand({ argv: ['head', '-c', '200000', '/dev/zero'] }, never());
    expect(r.exitCode).toBe(0);
    expect(Buffer.byteLength(r.stdout)).toBe(64 * 1024);
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stderrTruncated).toBe(false);
  });

  it('should honour maxOutputBytes on both streams and not cut a UTF-8 character', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'printf "ab€€"; printf "xyz" >&2'] }, never(), {
      maxOutputBytes: 4,
    });
    expect(r.stdout).toBe('ab');
    expect(r.stdoutTruncated).toBe(true);
    expect(r.stderr).toBe('xyz');
    expect(r.stderrTruncated).toBe(false);
  });

  it('should run in cwd', async () => {
    const r = await runShellCommand({ argv: ['pwd'], cwd: '/tmp' }, never());
    expect(r.stdout.trim()).toMatch(/\/tmp$/);
  });

  it('should throw naming cwd when it does not exist', async () => {
    const e = await rejection(runShellCommand({ argv: ['pwd'], cwd: '/no/such/dir/here' }, never()));
    expect(e.message).toMatch(/working directory '\/no\/such\/dir\/here'/);
  });

  it('should throw TimeoutError and kill a long sleep fast', async () => {
    const t0 = Date.now();
    const e = await rejection(runShellCommand({ argv: ['sleep', '10'], timeoutMs: 200 }, never()));
    expect(e.name).toBe('TimeoutError');
    expect(e.message).toMatch(/timed out after 200 ms/);
    expect(Date.now() - t0).toBeLessThan(5000); // killed, not run out (10 s); room for a loaded machine's spawn
  });

  it('should SIGKILL a process group that ignores SIGTERM after the grace period', async () => {
    const t0 = Date.now();
    const e = await rejection(
      runShellCommand({ argv: ['/bin/sh', '-c', 'trap "" TERM; sleep 10'], timeoutMs: 100 }, never(), {
        killGraceMs: 500,
      }),
    );
    expect(e.name).toBe('TimeoutError');
    const took = Date.now() - t0;
    expect(took).toBeGreaterThanOrEqual(550);
    expect(took).toBeLessThan(8000); // killed, not run out (10 s)
  });

  it('should throw AbortError when the caller aborts', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 100);
    const t0 = Date.now();
    const e = await rejection(runShellCommand({ argv: ['sleep', '10'] }, ac.signal));
    expect(e.name).toBe('AbortError');
    expect(Date.now() - t0).toBeLessThan(5000); // killed, not run out (10 s)
  });

  it('should throw AbortError without spawning when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    const e = await rejection(runShellCommand({ argv: ['/bin/echo', 'x'] }, ac.signal));
    expect(e.name).toBe('AbortError');
  });

  it(
    'should give the child only PATH, LANG, TZ and HOME plus ' + 'params.env, never a secret setting of this process',
    async () => {
      const saved = { ...process.env };
      Object.assign(process.env, {
        TICKWHEEL_TEST_SECRET: 'leaked',
        TICKWHEEL_SECRET_KEY: 'k'.repeat(64),
        DB_URL: 'mysql://u:pw@db/x',
        TZ: 'Europe/Paris',
      });
      try {
        const vars = envOf(
          (await runShellCommand({ argv: ['/usr/bin/env'], env: { MY_VAR: 'mine' } }, never())).stdout,
        );
        expect(vars.TICKWHEEL_TEST_SECRET).toBeUndefined();
        expect(vars.MY_VAR).toBe('mine');
        expect(vars.PATH).toBe(DEFAULT_SHELL_PATH); // never this process's (npm start puts node_modules/.bin first)
        expect(vars.TZ).toBe('Europe/Paris');
        const allowed = new Set(['PATH', 'HOME', 'LANG', 'TZ', 'MY_VAR']);
        expect(Object.keys(vars).filter((k) => !allowed.has(k))).toEqual([]);
      } finally {
        process.env = saved;
      }
    },
  );

  it('should throw a clear error naming argv[0] when the program does not exist', async () => {
    const e = await rejection(runShellCommand({ argv: ['/no/such/program-xyz', 'a'] }, never()));
    expect(e).not.toBeInstanceOf(ValidationError);
    expect(e.message).toBe("cannot start '/no/such/program-xyz': program not found (ENOENT)");
  });

  describe('params validation', () => {
    const cases: Array<[string, unknown, string]> = [
      ['not an object', ['/bin/echo'], 'params'],
      ['missing argv', {}, 'params.argv'],
      ['a string instead of an array', { argv: '/bin/echo hi' }, 'params.argv'],
      ['empty argv', { argv: [] }, 'params.argv'],
      ['a non-string element', { argv: ['/bin/echo', 42] }, 'params.argv[1]'],
      ['an empty program', { argv: [''] }, 'params.argv[0]'],
      ['NUL in an argument', { argv: ['/bin/echo', 'a\0b'] }, 'params.argv[1]'],
      ['cwd not a string', { argv: ['pwd'], cwd: 5 }, 'params.cwd'],
      ['env not an object', { argv: ['env'], env: 'A=1' }, 'params.env'],
      ['env value not a string', { argv: ['env'], env: { A: 1 } }, 'params.env.A'],
      ['env name with =', { argv: ['env'], env: { 'A=B': 'x' } }, 'params.env.A=B'],
      ['negative timeout', { argv: ['true'], timeoutMs: -5 }, 'params.timeoutMs'],
      ['timeout over 24h', { argv: ['true'], timeoutMs: 24 * 3600 * 1000 + 1 }, 'params.timeoutMs'],
      ['unknown field', { argv: ['true'], shell: true }, 'params.shell'],
    ];
    it.each(cases)('should reject %s with a ValidationError on the field', async (_name, params, field) => {
      const e = await rejection(runShellCommand(params, never()));
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).field).toBe(field);
    });
  });
});

describe('runShellCommand: process group and privileges', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'tw-shell-spec-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('should run in / when params.cwd is not given', async () => {
    expect((await runShellCommand({ argv: ['pwd'] }, never())).stdout).toBe('/\n');
  });

  it('should kill what the command left running in its group when it exits normally', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'sleep 300 & echo $!'] }, never());
    expect(r.exitCode).toBe(0);
    await expectGone(Number(r.stdout.trim()));
    const quiet = await runShellCommand({ argv: ['/bin/sh', '-c', 'sleep 300 >/dev/null 2>&1 & echo $!'] }, never());
    await expectGone(Number(quiet.stdout.trim()));
  });

  it('should kill the whole group on timeout, a member that ignores SIGTERM included', async () => {
    const pidFile = join(dir, 'timeout.pid');
    const e = await rejection(
      runShellCommand(
        { argv: ['/bin/sh', '-c', `(trap "" TERM; exec sleep 300) & echo $! > ${pidFile}; sleep 300`], timeoutMs: 300 },
        never(),
        { killGraceMs: 200 },
      ),
    );
    expect(e.name).toBe('TimeoutError');
    await expectGone(Number(readFileSync(pidFile, 'utf8')));
  });

  it('should kill the whole group on abort', async () => {
    const pidFile = join(dir, 'abort.pid');
    const ac = new AbortController();
    const run = runShellCommand(
      { argv: ['/bin/sh', '-c', `sleep 300 & echo $! > ${pidFile}.tmp; mv ${pidFile}.tmp ${pidFile}; sleep 300`] },
      ac.signal,
    );
    await waitFor('the background pid', async () => existsSync(pidFile), 10_000, 20);
    ac.abort();
    expect((await rejection(run)).name).toBe('AbortError');
    await expectGone(Number(readFileSync(pidFile, 'utf8')));
  });

  asRoot('should run the program as opts.uid/gid, without the supplementary groups of this process', async () => {
    const groups = process.getgroups?.() ?? [];
    process.setgroups?.([4, 27, ...groups]); // give this process groups the child must not keep
    try {
      const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'id -u; id -g; id -G; echo $HOME'] }, never(), {
        uid: NOBODY,
        gid: NOBODY,
      });
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`${NOBODY}\n${NOBODY}\n${NOBODY}\n/\n`);
    } finally {
      process.setgroups?.(groups);
    }
  });

  it("should give the child opts.umask and leave this process's umask as it was", async () => {
    const before = process.umask(0o022);
    try {
      const r = await runShellCommand(
        { argv: ['/bin/sh', '-c', `umask; : > ${dir}/made; stat -c %a ${dir}/made`] },
        never(),
        {
          umask: 0o077,
        },
      );
      expect(r.stdout).toBe('0077\n600\n');
      expect(process.umask(0o022)).toBe(0o022);
      expect((await runShellCommand({ argv: ['/bin/sh', '-c', 'umask'] }, never())).stdout).toBe('0022\n');
    } finally {
      process.umask(before);
    }
  });

  asRoot('should not let a command run as another uid read this process environment through /proc', async () => {
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'cat /proc/$PPID/environ'] }, never(), {
      uid: NOBODY,
      gid: NOBODY,
    });
    expect(r.exitCode).not.toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/Permission denied/);
  });

  asRoot(
    'should say the working directory cannot be entered by the run-as user (not that the program is missing)',
    async () => {
      const e = await rejection(runShellCommand({ argv: ['pwd'], cwd: dir }, never(), { uid: NOBODY, gid: NOBODY }));
      expect(e).not.toBeInstanceOf(ValidationError);
      expect(e.message).toContain(`working directory '${dir}' cannot be entered by uid ${NOBODY}`);
    },
  );
});

describe('shellBaseEnv', () => {
  const parent = {
    PATH: '/opt/bin:/usr/bin',
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    HOME: '/root',
    FOO: 'f',
    HTTP_PROXY: 'http://proxy:3128',
    TICKWHEEL_SECRET_KEY: 'k',
    DB_URL: 'mysql://u:pw@db/x',
  };

  it('should take LANG and TZ from the parent, then the listed names, and set HOME and the fixed PATH', () => {
    expect(shellBaseEnv(parent, { home: '/', pass: ['HTTP_PROXY', 'NOT_SET'] })).toEqual({
      PATH: DEFAULT_SHELL_PATH,
      LANG: 'C.UTF-8',
      TZ: 'UTC',
      HTTP_PROXY: 'http://proxy:3128',
      HOME: '/',
    });
  });

  it("should give the parent's PATH only when TICKWHEEL_SHELL_ENV_PASS lists PATH", () => {
    const npmStart = { ...parent, PATH: '/srv/clone/node_modules/.bin:/usr/local/bin:/usr/bin:/bin' };
    expect(shellBaseEnv(npmStart, { home: '/' }).PATH).toBe(
      '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin',
    );
    expect(shellBaseEnv(npmStart, { home: '/', pass: ['PATH'] }).PATH).toBe(npmStart.PATH);
    expect(shellBaseEnv({}, { home: '/', pass: ['PATH'] }).PATH).toBe(DEFAULT_SHELL_PATH);
  });

  it(`should default PATH to ${DEFAULT_SHELL_PATH} and leave out LANG and TZ when the parent has none`, () => {
    expect(shellBaseEnv({ FOO: 'f' }, { home: '/srv' })).toEqual({ PATH: DEFAULT_SHELL_PATH, HOME: '/srv' });
  });

  it('should never pass a secret setting, even when it is listed', () => {
    const env = shellBaseEnv(
      { ...parent, REDIS_URL: 'redis://:pw@r', TICKWHEEL_SECRET: 's' },
      { home: '/', pass: ['TICKWHEEL_SECRET_KEY', 'DB_URL', 'REDIS_URL', 'TICKWHEEL_SECRET'] },
    );
    expect(Object.keys(env).sort()).toEqual(['HOME', 'LANG', 'PATH', 'TZ']);
  });
});

describe('passwdHome', () => {
  let dir: string;
  let passwd: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'tw-passwd-'));
    passwd = join(dir, 'passwd');
    writeFileSync(
      passwd,
      [
        'root:x:0:0:root:/root:/bin/sh',
        `jobs:x:1000:1000::${dir}:/bin/sh`,
        'nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin',
        '',
      ].join('\n'),
    );
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("should be the user's home from passwd when that directory exists, else /", () => {
    expect(passwdHome(1000, passwd)).toBe(dir);
    expect(passwdHome(NOBODY, passwd)).toBe('/');
    expect(passwdHome(4242, passwd)).toBe('/');
    expect(passwdHome(1000, join(dir, 'no-such-file'))).toBe('/');
  });
});
