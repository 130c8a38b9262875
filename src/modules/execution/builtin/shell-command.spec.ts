import { ValidationError } from '../../../common/index.js';
import { never, rejection } from '../../../../test/utils/async.js';
import { runShellCommand } from './shell-command.js';


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

  it('should return soon after exit even if a background grandchild keeps stdout open', async () => {
    const t0 = Date.now();
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'sleep 3 & echo hi'] }, never());
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
    const r = await runShellCommand({ argv: ['/bin/sh', '-c', 'printf "ab€€"; printf "xyz" >&2'] }, never(), { maxOutputBytes: 4 });
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
    const e = await rejection(runShellCommand({ argv: ['/bin/sh', '-c', 'trap "" TERM; sleep 10'], timeoutMs: 100 }, never(), { killGraceMs: 500 }));
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

  it('should not leak the parent environment, only PATH/HOME/LANG plus params.env', async () => {
    process.env.TICKWHEEL_TEST_SECRET = 'leaked';
    try {
      const r = await runShellCommand({ argv: ['/usr/bin/env'], env: { MY_VAR: 'mine', PATH: '/usr/bin:/bin' } }, never());
      const vars = Object.fromEntries(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
      );
      expect(vars.TICKWHEEL_TEST_SECRET).toBeUndefined();
      expect(vars.MY_VAR).toBe('mine');
      expect(vars.PATH).toBe('/usr/bin:/bin');
      const allowed = new Set(['PATH', 'HOME', 'LANG', 'MY_VAR']);
      expect(Object.keys(vars).filter((k) => !allowed.has(k))).toEqual([]);
    } finally {
      delete process.env.TICKWHEEL_TEST_SECRET;
    }
  });

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
