import { spawn } from 'node:child_process';
import { join } from 'node:path';

const LIMIT_MS = 120_000;

/**
 * The chaos check at CI size (docs/guarantees.md "Running the proofs"): `npm run chaos -- --small` — two schedulers
 * and three executors as real processes on the real MariaDB and Redis, cron jobs and API tasks, SIGKILLs of executors
 * and of the leader, SIGSTOPs past the offline threshold — must end with an OK verdict (nothing missing, doubled,
 * unfinished or unexplained; every callback delivered; every planned failure notified once) within two minutes.
 * dist/ is built by the test setup.
 */
describe('chaos check, small', () => {
  it(
    'should print an OK verdict within two minutes',
    async () => {
      const started = Date.now();
      const child = spawn(process.execPath, [join(process.cwd(), 'scripts/chaos/chaos.mjs'), '--small'], {
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let out = '';
      let err = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-6000)));
      const timer = setTimeout(() => child.kill('SIGTERM'), LIMIT_MS); // the script stops its processes on SIGTERM
      const code = await new Promise<number | null>((resolve) => child.on('exit', (c) => resolve(c)));
      clearTimeout(timer);
      const verdict = out.split('\n').find((l) => l.startsWith('chaos:')) ?? '(no verdict)';
      process.stdout.write(`[e2e chaos] ${verdict} (${((Date.now() - started) / 1000).toFixed(0)} s)\n`);
      if (code !== 0) process.stdout.write(`[e2e chaos] exit ${code}; last output:\n${err}\n`);
      expect(verdict).toMatch(
        /^chaos: OK .* missing=0 dup=0 extra=0 doubleSuccess=0 unfinished=0 failed=0 untraced=0 noEffect=0 /,
      );
      // Every final instance called back once per deliveryId, signed, to the URL its rule picks (docs/callbacks.md).
      const [, delivered, expected] = /callbacks=(\d+)\/(\d+)/.exec(verdict) ?? [];
      expect(Number(expected)).toBeGreaterThan(0);
      expect(delivered).toBe(expected);
      expect(verdict).toMatch(/cbMissing=0 cbFailed=0 cbLost=0 cbSplit=0 cbBadSig=0 cbWrongUrl=0 cbWrongStatus=0 /);
      // The planned failures (a tenth of the tasks) all ended FAILED, and each is named by exactly one delivered
      // notification of the FAILURE rule, or counted in one past its 20 stored samples (MESSAGE_SAMPLES: a seed that
      // grouped 21 failures in one message named 20); a message POSTed twice under one deliveryId is allowed.
      const [, failedAsPlanned, planned] = /failing=(\d+)\/(\d+)/.exec(verdict) ?? [];
      expect(Number(planned)).toBeGreaterThan(0);
      expect(failedAsPlanned).toBe(planned);
      const [, notified, failures] = /notified=(\d+)\/(\d+)/.exec(verdict) ?? [];
      expect(failures).toBe(planned);
      const [, unsampled] = /nfUnsampled=(\d+)/.exec(verdict) ?? [];
      expect(Number(notified) + Number(unsampled)).toBe(Number(failures));
      expect(verdict).toMatch(/nfLost=0 nfDoubled=0 nfUndelivered=0 nfStray=0 nfBadSig=0 /);
      expect(code).toBe(0);
      expect(Date.now() - started).toBeLessThan(LIMIT_MS);
    },
    LIMIT_MS + 30_000,
  );
});
