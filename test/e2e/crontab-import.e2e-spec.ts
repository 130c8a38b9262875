import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { runNode } from '../utils/run-node.js';
import { type AppClient, signedClient, standaloneEnv, startNode, TestNode, waitFor } from '../utils/test-node.js';

const DIR = resolve(process.cwd(), 'test/fixtures/crontabs');
const FILES = readdirSync(DIR)
  .filter((f) => f !== 'README.md')
  .sort();

interface ImportAnswer {
  created: string[];
  updated: string[];
  rejected: Array<{ lineNo: number; line: string; reason: string }>;
  pausedForUser: string[];
}

interface JobState {
  enabled: boolean;
  pausedReason: string | null;
  description: string;
}

/** Lines that are neither blank nor comments: each must come back as a job or as a rejected line. */
function significantLines(text: string): number {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trim().startsWith('#')).length;
}

describe('importing the real cron.d files of test/fixtures/crontabs', () => {
  let node: TestNode;
  let client: AppClient;

  beforeAll(async () => {
    node = await startNode(standaloneEnv({ TICKWHEEL_ALLOW_SHELL: 'true' }));
    client = await signedClient(node, undefined, [...DEFAULT_SCOPES, Scope.SHELL]); // imported jobs are shell jobs
  });
  afterAll(async () => node?.close());

  it('should find the fixture crontab files', () => {
    expect(FILES).toEqual(
      expect.arrayContaining(['anacron', 'certbot', 'e2scrub_all', 'mdadm', 'munin-node', 'ntpsec', 'sysstat']),
    );
  });

  it.each(FILES)('should account for every line of %s, as a paused shell job or a reason', async (file) => {
    const content = readFileSync(join(DIR, file), 'utf8');
    const res = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', {
      fileName: file,
      content,
      timeZone: 'Europe/London',
    });
    expect(res.status).toBe(200);
    const { created, updated, rejected } = res.body;
    expect(created.length + updated.length + rejected.length).toBe(significantLines(content));
    for (const r of rejected)
      expect(r.reason).toMatch(/variable assignment|@reboot|not supported|field|invalid|never/i);
    for (const code of [...created, ...updated]) {
      const job = await client.request<{
        handler: string;
        enabled: boolean;
        timeZone: string;
        params: { argv: string[] };
        nextFireTimes: string[];
      }>('GET', `/api/jobs/${code}`);
      expect(job.status).toBe(200);
      expect(job.body.handler).toBe('shell');
      expect(job.body.enabled).toBe(false);
      expect(job.body.timeZone).toBe('Europe/London');
      expect(job.body.params.argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
      const times = job.body.nextFireTimes.map((t) => Date.parse(t));
      expect(times).toHaveLength(5);
      for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThan(times[i - 1]);
    }
  });

  it('should compute classic cron fire times for sysstat (5-55/10 minutes) and keep variables as env', async () => {
    const job = await client.request<{ nextFireTimes: string[]; params: { env: Record<string, string> } }>(
      'GET',
      '/api/jobs/sysstat-L6',
    );
    expect(job.status).toBe(200);
    for (const t of job.body.nextFireTimes) expect(new Date(t).getUTCMinutes() % 10).toBe(5);
    expect(job.body.params.env.PATH).toBe('/usr/lib/sysstat:/usr/sbin:/usr/sbin:/usr/bin:/sbin:/bin');
  });

  it('should update, not duplicate, on a second import of the same file', async () => {
    const content = readFileSync(join(DIR, 'e2scrub_all'), 'utf8');
    const res = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', {
      fileName: 'e2scrub_all',
      content,
    });
    expect(res.body.created).toEqual([]);
    expect(res.body.updated).toHaveLength(2);
  });

  it('should run an imported job through the shell handler when triggered', async () => {
    const code = (
      await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', {
        fileName: 'ntpsec',
        content: readFileSync(join(DIR, 'ntpsec'), 'utf8'),
      })
    ).body.updated[0];
    const run = await client.request<{ requestId: string }>('POST', `/api/jobs/${code}/trigger`, {});
    expect(run.status).toBe(202);
    const rows = () =>
      node.ds.query('SELECT status, result FROM job_instance WHERE request_id = ?', [run.body.requestId]) as Promise<
        Array<{ status: string; result: string }>
      >;
    await waitFor(
      'imported job to finish',
      async () => ['SUCCESS', 'FAILED'].includes((await rows())[0]?.status),
      60_000,
    );
    const [row] = await rows();
    expect(row.status).toBe('SUCCESS');
    expect(JSON.parse(row.result).exitCode).toBe(0);
  }, 90_000);

  it("should keep root's e2scrub_all lines paused with a reason even with enable, until resumed", async () => {
    const content = readFileSync(join(DIR, 'e2scrub_all'), 'utf8');
    const body = { fileName: 'e2scrub-root', content, enable: true };
    const res = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', body);
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual(['e2scrub-root-L1', 'e2scrub-root-L2']);
    expect(res.body.pausedForUser).toEqual(['e2scrub-root-L1', 'e2scrub-root-L2']);
    for (const code of res.body.created) {
      const job = await client.request<JobState>('GET', `/api/jobs/${code}`);
      expect(job.body).toMatchObject({ enabled: false, pausedReason: 'CRONTAB_USER' });
      expect(job.body.description).toMatch(/crontab user root, not mapped: .*not as root/);
    }
    // The user's own resume takes it (unlike CLIENT_DISABLED) and clears the reason.
    const resumed = await client.request<JobState>('POST', '/api/jobs/e2scrub-root-L1/resume', {});
    expect(resumed.status).toBe(200);
    expect(resumed.body).toMatchObject({ enabled: true, pausedReason: null });
    // Imported again unmapped, it is held again: the file still names root.
    const again = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', body);
    expect(again.body.pausedForUser).toEqual(['e2scrub-root-L1', 'e2scrub-root-L2']);
    const held = await client.request<JobState>('GET', '/api/jobs/e2scrub-root-L1');
    expect(held.body).toMatchObject({ enabled: false, pausedReason: 'CRONTAB_USER' });
  });

  it('should enable the lines of a user the importer maps, and only those', async () => {
    const content = '0 4 * * * root /bin/true\n0 5 * * * munin /bin/true\n';
    const res = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', {
      fileName: 'mapped',
      content,
      enable: true,
      mapUsers: ['root'],
    });
    expect(res.status).toBe(200);
    expect(res.body.pausedForUser).toEqual(['mapped-L2']);
    const root = await client.request<JobState>('GET', '/api/jobs/mapped-L1');
    expect(root.body).toMatchObject({ enabled: true, pausedReason: null });
    expect(root.body.description).toMatch(/crontab user root, mapped/);
    const munin = await client.request<JobState>('GET', '/api/jobs/mapped-L2');
    expect(munin.body).toMatchObject({ enabled: false, pausedReason: 'CRONTAB_USER' });
    // Without enable a mapped line is an ordinary paused job: no system reason.
    const paused = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', {
      fileName: 'mapped',
      content,
      mapUsers: ['root'],
    });
    expect(paused.body.pausedForUser).toEqual(['mapped-L2']);
    const rootPaused = await client.request<JobState>('GET', '/api/jobs/mapped-L1');
    expect(rootPaused.body).toMatchObject({ enabled: false, pausedReason: null });
  });

  it('should say in the CLI which jobs it kept paused for their user, and take --map-user', async () => {
    const cli = (args: string[]) =>
      runNode(join(process.cwd(), 'dist/src/bin/import-crontab.js'), [join(DIR, 'e2scrub_all'), ...args], {
        TICKWHEEL_URL: node.url,
        TICKWHEEL_APP_ID: client.appId,
        TICKWHEEL_SECRET: client.secret,
      });
    const held = await cli(['--enable']);
    expect(held.code).toBe(0);
    expect(held.stdout).toMatch(/2 job\(s\) kept paused \(pausedReason CRONTAB_USER\)/);
    expect(held.stdout).toContain('  ! e2scrub_all-L1\n');
    const mapped = await cli(['--map-user', 'root', '--enable']);
    expect(mapped.code).toBe(0);
    expect(mapped.stdout).not.toMatch(/kept paused/);
    const job = await client.request<JobState>('GET', '/api/jobs/e2scrub_all-L2');
    expect(job.body).toMatchObject({ enabled: true, pausedReason: null });
  }, 60_000);

  it('should refuse a mapUsers entry that is not a user name, writing nothing', async () => {
    const res = await client.request<{ field: string }>('POST', '/api/jobs/import-crontab', {
      fileName: 'badmap',
      content: '0 4 * * * root /bin/true\n',
      mapUsers: ['root tickwheel'],
    });
    expect(res.status).toBe(400);
    expect(res.body.field).toBe('mapUsers');
    expect((await client.request('GET', '/api/jobs/badmap-L1')).status).toBe(404);
  });

  it('should list @reboot, bad syntax and variables with reasons instead of dropping them', async () => {
    const content = [
      'MAILTO=root',
      '@reboot root /bin/true',
      '61 * * * * root /bin/true',
      '* * * root /bin/true',
      '@daily root /bin/echo ok',
      '',
    ].join('\n');
    const res = await client.request<ImportAnswer>('POST', '/api/jobs/import-crontab', { fileName: 'mixed', content });
    expect(res.status).toBe(200);
    expect(res.body.created).toEqual(['mixed-L5']);
    expect(res.body.rejected.map((r) => r.lineNo)).toEqual([1, 2, 3, 4]);
    expect(res.body.rejected[1].reason).toMatch(/reboot/);
  });
});
