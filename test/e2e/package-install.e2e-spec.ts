import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DEFAULT_SCOPES, Scope } from '../../src/modules/metadata/index.js';
import { type ProductProcess, startCommand } from '../utils/process-node.js';
import {
  type AppClient,
  clusterEnv,
  liveExecutors,
  signedClient,
  startNode,
  type TestNode,
  uniqueNamespace,
  waitFor,
} from '../utils/test-node.js';
import { PROJECT_FILES } from './package-install-project.js';

const run = promisify(execFile);
const ROOT = process.cwd();
const MINUTES = 60_000;
const NETWORK = /^(https?_proxy|no_proxy|node_extra_ca_certs|ssl_cert_(file|dir))$/i;

/** The tarball `npm pack` made, with npm's own figures (bytes). */
interface Packed {
  file: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
}

/** A project outside the repository that installed the tarball, compiled (`dist/`) and ready to run. */
interface Project {
  dir: string;
  installMs: number;
}

/** npm with PATH, HOME and how this machine reaches the registry (proxy, extra CA), no product setting; loud enough. */
async function npm(args: string[], cwd: string, timeout: number): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => NETWORK.test(k)));
  Object.assign(env, { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), SCARF_ANALYTICS: 'false' });
  const { stdout } = await run('npm', [...args, '--loglevel=error'], { cwd, env, timeout, maxBuffer: 64 << 20 });
  return stdout;
}

/** `npm pack` of the repository (dist/ as the e2e global setup built it) into `dest`. */
async function pack(dest: string): Promise<Packed> {
  const [out] = JSON.parse(await npm(['pack', '--json', '--pack-destination', dest], ROOT, 2 * MINUTES)) as Array<
    Packed & { filename: string }
  >;
  return { file: join(dest, out.filename), size: out.size, unpackedSize: out.unpackedSize, entryCount: out.entryCount };
}

/** The version of `name` the repository has installed: the project gets the same peers the tests run on. */
const repoVersion = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** The range package.json's dependencies give `name`. */
const repoDependency = (name: string) =>
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> })
    .dependencies[name];

/**
 * An empty folder under os.tmpdir() made a project: package.json naming the tarball, the peers and the `overrides`
 * README "Write your own handlers" asks for, installed with a bare `npm install` (registry reachable;
 * --prefer-offline takes what the npm cache has), the files of package-install-project.ts written and compiled
 * with `tsc --strict` (module nodenext).
 */
async function makeProject(tarball: string): Promise<Project> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-pkg-install-'));
  const peers = ['@nestjs/common', '@nestjs/core', 'reflect-metadata', 'rxjs', '@types/node'];
  const dependencies = Object.fromEntries([['tickwheel', `file:${tarball}`], ...peers.map((p) => [p, repoVersion(p)])]);
  // TypeORM's peer is better-sqlite3 ^12, Tickwheel's dependency 13: the override makes them one copy.
  const overrides = { typeorm: { 'better-sqlite3': repoDependency('better-sqlite3') } };
  const pkg = { name: 'pkg-install-probe', private: true, type: 'module', dependencies, overrides };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const t0 = performance.now();
  await npm(['install', '--prefer-offline', '--no-audit', '--no-fund'], dir, 12 * MINUTES);
  const installMs = Math.round(performance.now() - t0);
  for (const [path, text] of Object.entries(PROJECT_FILES)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  // the repository's compiler (the project needs no TypeScript of its own to run), on the project's tsconfig
  await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], {
    cwd: dir,
    timeout: 3 * MINUTES,
  }).catch((err: { stdout?: string }) => {
    throw new Error(`tsc --strict of the project failed:\n${err.stdout ?? String(err)}`);
  });
  return { dir, installMs };
}

/** `node <script>` of the project with exactly `env` (plus PATH), from the project's folder. */
function startFromProject(project: Project, script: string, env: Record<string, string>): ProductProcess {
  return startCommand([process.execPath, script], { PATH: process.env.PATH ?? '', ...env }, { cwd: project.dir });
}

/**
 * Tickwheel as a user gets it (issue 22): `npm pack`, installed with its peers into a project outside the
 * repository, that project's own Nest app compiled under `tsc --strict` and run as a trusted executor against a
 * product started here; its handler's unit test written with `tickwheel/testing` runs under node:test, and
 * `tickwheel/client` signs a request from there. The same handler module then runs as an app worker
 * (`tickwheel/worker`) with only its app's credentials: its tasks end SUCCESS, a SIGKILLed worker's task resumes on
 * a second one from its checkpoint, and another app's task for the same name never reaches it. Prints the
 * tarball's size and the install's time.
 */
describe('tickwheel installed from its tarball into a project outside the repository', () => {
  const packDir = mkdtempSync(join(tmpdir(), 'tw-pkg-pack-'));
  let packed: Packed;
  let project: Project;

  beforeAll(async () => {
    packed = await pack(packDir);
    project = await makeProject(packed.file);
    process.stdout.write(
      `[package-install] npm pack: ${packed.size} bytes (${packed.unpackedSize} unpacked, ${packed.entryCount} ` +
        `files); npm install of the tarball and peers: ${(project.installMs / 1000).toFixed(1)} s\n`,
    );
  }, 20 * MINUTES);

  afterAll(() => {
    if (project) rmSync(project.dir, { recursive: true, force: true });
    rmSync(packDir, { recursive: true, force: true });
  });

  it('should install one better-sqlite3, the version Tickwheel depends on (no compile, no second copy)', () => {
    const version = (path: string) =>
      (JSON.parse(readFileSync(join(project.dir, path, 'package.json'), 'utf8')) as { version: string }).version;
    expect(version('node_modules/better-sqlite3')).toBe(repoVersion('better-sqlite3'));
    expect(existsSync(join(project.dir, 'node_modules/tickwheel/node_modules/better-sqlite3'))).toBe(false);
  });

  it('should ship the built entries with their types, and no spec, test or source map', () => {
    const listed = JSON.parse(readFileSync(join(project.dir, 'node_modules/tickwheel/package.json'), 'utf8')) as {
      exports: Record<string, unknown>;
    };
    expect(Object.keys(listed.exports)).toEqual(
      expect.arrayContaining(['./executor', './worker', './client', './testing']),
    );
    for (const entry of ['executor', 'client', 'testing'])
      for (const ext of ['js', 'd.ts'])
        expect(() =>
          readFileSync(join(project.dir, `node_modules/tickwheel/dist/src/${entry}/index.${ext}`)),
        ).not.toThrow();
    const files = readdirRecursive(join(project.dir, 'node_modules/tickwheel'));
    expect(files.filter((f) => /\.spec\.|\.map$|^test\/|^examples\//.test(f))).toEqual([]);
  });

  it(
    "should pass the handler's own unit test written with tickwheel/testing (node:test)",
    async () => {
      const { stdout } = await run(process.execPath, ['--test', 'dist/hello.test.js'], {
        cwd: project.dir,
        env: { PATH: process.env.PATH ?? '' },
        timeout: 2 * MINUTES,
      });
      expect(stdout).toMatch(/# pass 2\b[\s\S]*# fail 0\b/); // node:test's summary: pass, then fail
    },
    3 * MINUTES,
  );

  describe('as a trusted executor (tickwheel/executor)', () => {
    const ns = uniqueNamespace('e2e-pkg');
    let api: TestNode;
    let client: AppClient;
    let executor: ProductProcess | undefined;

    beforeAll(async () => {
      api = await startNode(clusterEnv(ns, { ROLES: 'api,scheduler', NODE_OFFLINE_AFTER_MS: '15000' }));
      client = await signedClient(api);
      // liveExecutors names a node by its NODE_NAME up to the first '-'
      const env = clusterEnv(ns, { PORT: '0', NODE_NAME: 'pkgexec', NODE_OFFLINE_AFTER_MS: '15000' });
      const exec = startFromProject(project, 'dist/main.js', env);
      executor = exec;
      await waitFor(
        'the installed executor to beat',
        async () => (await liveExecutors(api)).includes('pkgexec') || exec.child.exitCode !== null,
        60_000,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; its output:\n${exec.output()}`);
      });
      if (exec.child.exitCode !== null) throw new Error(`the executor exited:\n${exec.output()}`);
    }, 2 * MINUTES);

    afterAll(async () => {
      await executor?.stop(10_000);
      await api?.close();
    });

    it(
      'should advertise its handler and end a task of it SUCCESS with its result',
      async () => {
        await waitFor(
          'pkg.hello advertised',
          async () => {
            const nodes = await client.request<{ items: Array<{ handlers: string[] }> }>(
              'GET',
              '/api/nodes?handler=pkg.hello',
            );
            return nodes.body.items.some((n) => n.handlers.includes('pkg.hello'));
          },
          30_000,
        );
        const sub = await client.submitTask({ handler: 'pkg.hello', params: { name: 'Ada', steps: 3 } });
        expect(sub.status).toBe(202);
        await waitFor(
          'SUCCESS',
          async () => (await client.getTask(sub.body.requestId)).body.status === 'SUCCESS',
          60_000,
        );
        const task = (await client.getTask(sub.body.requestId)).body as { result: unknown };
        expect(task.result).toEqual({ greeting: 'Hello, Ada!', steps: 3, resumedFrom: 0 });
      },
      2 * MINUTES,
    );

    it(
      'should sign a request with tickwheel/client imported from the project',
      async () => {
        const { stdout } = await run(process.execPath, ['dist/client-check.js'], {
          cwd: project.dir,
          env: { PATH: process.env.PATH ?? '', TICKWHEEL_URL: api.url, ...credentials(client) },
          timeout: MINUTES,
        });
        expect(JSON.parse(stdout)).toEqual({ status: 200, handlers: expect.arrayContaining(['pkg.hello']) });
      },
      2 * MINUTES,
    );
  });

  // The same project's worker.ts (tickwheel/worker) against an api of its own (no trusted executor: only workers
  // advertise pkg.hello there), with the worker-protocol suite's short lease and node timeout so a SIGKILLed
  // worker's attempt is taken back within seconds.
  describe('as an app worker (tickwheel/worker)', () => {
    const ns = uniqueNamespace('e2e-pkgw');
    let api: TestNode;
    let app: AppClient;
    const workers: ProductProcess[] = [];

    /** worker.ts with only the app's credentials and WORKER_* tuning (plus PATH and HOME); registered when it returns. */
    async function startWorker(): Promise<ProductProcess> {
      const env = {
        HOME: process.env.HOME ?? tmpdir(),
        TICKWHEEL_URL: api.url,
        ...credentials(app),
        WORKER_CONCURRENCY: '2',
        WORKER_DRAIN_GRACE_MS: '2000',
      };
      expect(Object.keys(env).filter((k) => /^(DB_|REDIS_|TICKWHEEL_SECRET_KEY|TICKWHEEL_NAMESPACE)/.test(k))).toEqual(
        [],
      );
      const w = startFromProject(project, 'dist/worker.js', env);
      workers.push(w);
      await waitFor(
        'the worker to register',
        async () => registered(w) !== undefined || w.child.exitCode !== null,
        60_000,
      );
      if (w.child.exitCode !== null) throw new Error(`the worker exited:\n${w.output()}`);
      // what the process itself saw: a node id, and none of the cluster's settings in its environment
      expect(registered(w)).toEqual({ event: 'registered', nodeId: expect.any(String), clusterSettings: [] });
      return w;
    }

    const view = async (client: AppClient, id: string) =>
      (await client.getTask(id)).body as {
        status: string;
        result: { greeting: string; steps: number; resumedFrom: number } | null;
        attempt: number;
        progress: number | null;
        note?: string;
        startedAt: string | null;
        nodeId: string | null;
        attempts: unknown[];
      };
    const ended = (client: AppClient, id: string, ms: number) =>
      waitFor(
        `${id} to end`,
        async () => !['PENDING', 'DISPATCHED', 'RUNNING'].includes((await view(client, id)).status),
        ms,
      );

    beforeAll(async () => {
      api = await startNode(
        clusterEnv(ns, {
          ROLES: 'api,scheduler',
          LEASE_MS: '4000',
          LEASE_RENEW_MS: '1000',
          NODE_OFFLINE_AFTER_MS: '3000',
        }),
      );
      app = await signedClient(api, `pkgw-${randomUUID().slice(0, 8)}`, [...DEFAULT_SCOPES, Scope.WORKER]);
    }, 2 * MINUTES);

    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop(10_000)));
    });

    afterAll(async () => {
      await api?.close();
    });

    it(
      'should run its tasks to SUCCESS with only TICKWHEEL_URL, TICKWHEEL_APP_ID and TICKWHEEL_SECRET',
      async () => {
        await startWorker();
        const ids: string[] = [];
        for (const name of ['Ada', 'Grace', 'Linus'])
          ids.push((await app.submitTask({ handler: 'pkg.hello', params: { name, steps: 2 } })).body.requestId);
        for (const id of ids) await ended(app, id, MINUTES);
        expect(await Promise.all(ids.map(async (id) => (await view(app, id)).status))).toEqual(
          ids.map(() => 'SUCCESS'),
        );
        expect((await view(app, ids[1])).result).toEqual({ greeting: 'Hello, Grace!', steps: 2, resumedFrom: 0 });
      },
      3 * MINUTES,
    );

    it(
      'should resume a task whose worker is SIGKILLed on a second worker from its checkpoint',
      async () => {
        const first = await startWorker();
        const sub = await app.submitTask({
          handler: 'pkg.hello',
          params: { name: 'Ada', steps: 40, stepMs: 200 },
          maxAttempts: 3,
          retryBackoffMs: 100,
        });
        const id = sub.body.requestId;
        // progress k/40 is reported before checkpoint k is stored: at 4/40, checkpoint 3 is
        await waitFor('step 4 of 40', async () => ((await view(app, id)).progress ?? 0) >= 4 / 40, MINUTES);
        const seen = Math.round(((await view(app, id)).progress ?? 0) * 40);
        first.signal('SIGKILL');
        await first.exited;
        expect((await view(app, id)).status).not.toBe('SUCCESS');

        await startWorker();
        await ended(app, id, 2 * MINUTES);
        const done = await view(app, id);
        expect(done.status).toBe('SUCCESS');
        expect(done.attempt).toBeGreaterThanOrEqual(2);
        expect(done.result?.greeting).toBe('Hello, Ada!');
        // from what the first worker stored (ctx.lastCheckpoint), not from the start and not past the kill
        expect(done.result?.resumedFrom).toBeGreaterThanOrEqual(seen - 1);
        expect(done.result?.resumedFrom).toBeLessThan(40);
      },
      4 * MINUTES,
    );

    it(
      "should never get another app's task for the same handler name (it waits PENDING for that app's own)",
      async () => {
        await startWorker();
        const other = await signedClient(api, `pkgw-other-${randomUUID().slice(0, 8)}`, [
          ...DEFAULT_SCOPES,
          Scope.WORKER,
        ]);
        // clustered, the api accepts it to wait (docs/workers.md "Tenancy"): no trusted executor and no worker of
        // its own app advertises pkg.hello, so nothing may run it
        const theirs = await other.submitTask({ handler: 'pkg.hello', params: { name: 'Mallory' } });
        expect(theirs.status).toBe(202);
        const ours = await app.submitTask({ handler: 'pkg.hello', params: { name: 'Ada' } });
        await ended(app, ours.body.requestId, MINUTES);
        expect((await view(app, ours.body.requestId)).status).toBe('SUCCESS');
        await new Promise((resolve) => setTimeout(resolve, 5_000)); // several claim rounds of the live worker
        const stuck = await view(other, theirs.body.requestId);
        expect(stuck).toMatchObject({ status: 'PENDING', startedAt: null, nodeId: null, attempts: [] });
        expect(stuck.note).toMatch(/no live executor advertises handler 'pkg\.hello'/);
        // and the other app does not see this app's worker node
        const nodes = await other.request<{ items: Array<{ handlers: string[] }> }>('GET', '/api/nodes');
        expect(nodes.body.items.filter((n) => n.handlers.includes('pkg.hello'))).toEqual([]);
      },
      3 * MINUTES,
    );
  });
});

/** The worker's `registered` line, once it printed it. */
function registered(w: ProductProcess): unknown {
  const line = w
    .output()
    .split('\n')
    .find((l) => l.startsWith('{"event":"registered"'));
  return line === undefined ? undefined : JSON.parse(line);
}

function credentials(client: AppClient): Record<string, string> {
  return { TICKWHEEL_APP_ID: client.appId, TICKWHEEL_SECRET: client.secret };
}

/** The files under `dir` (paths relative to it), without a nested node_modules. */
function readdirRecursive(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name).slice(dir.length + 1))
    .filter((f) => !f.startsWith('node_modules/'));
}
