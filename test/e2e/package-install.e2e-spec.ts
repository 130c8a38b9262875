import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
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

/** npm with exactly PATH and HOME of this process (no setting of the product leaks into it), loud enough to read. */
async function npm(args: string[], cwd: string, timeout: number): Promise<string> {
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? tmpdir(), SCARF_ANALYTICS: 'false' };
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

/**
 * An empty folder under os.tmpdir() made a project: package.json, the tarball and the peers installed as a user
 * installs them (registry reachable; --prefer-offline takes what the npm cache has), the files of
 * package-install-project.ts written and compiled with `tsc --strict` (module nodenext).
 */
async function makeProject(tarball: string): Promise<Project> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-pkg-install-'));
  const pkg = { name: 'pkg-install-probe', private: true, type: 'module', allowScripts: { 'better-sqlite3': true } };
  writeFileSync(join(dir, 'package.json'), JSON.stringify(pkg, null, 2));
  const peers = ['@nestjs/common', '@nestjs/core', 'reflect-metadata', 'rxjs', '@types/node'];
  const t0 = performance.now();
  await npm(
    ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...peers.map((p) => `${p}@${repoVersion(p)}`)],
    dir,
    12 * MINUTES,
  );
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
 * `tickwheel/client` signs a request from there. Prints the tarball's size and the install's time.
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
      expect(stdout).toMatch(/# pass 2\b/);
      expect(stdout).toMatch(/# fail 0\b/);
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
            const nodes = await client.request<{ items: Array<{ handlers: string[] }> }>('GET', '/api/nodes');
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

  // The app-worker half of the proof goes here once `tickwheel/worker` exists (docs/workers.md): the same project
  // gets a worker main (PROJECT_FILES), run with startFromProject(project, 'dist/worker.js', { TICKWHEEL_URL: api.url,
  // TICKWHEEL_APP_ID, TICKWHEEL_SECRET }) and nothing else: no DB_URL, REDIS_URL or TICKWHEEL_SECRET_KEY.
  describe('as an app worker (tickwheel/worker)', () => {
    it.todo('should run the same handler with only TICKWHEEL_URL, TICKWHEEL_APP_ID and TICKWHEEL_SECRET');
  });
});

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
