import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { loadConfig, SECRET_SETTINGS } from '../../src/config/index.js';
import { HealthController } from '../../src/modules/observability/index.js';
import {
  assignments,
  dockerignoreExcludes,
  execForm,
  type Instruction,
  parseDockerfile,
  type Stage,
} from './docker-files.js';

const ROOT = process.cwd();
const read = (p: string): string => readFileSync(join(ROOT, p), 'utf8');
const { globalArgs, stages } = parseDockerfile(read('docker/Dockerfile'));
const dockerignore = read('.dockerignore');
const runtime = stages[stages.length - 1];

const ops = (stage: Stage, op: string): Instruction[] => stage.body.filter((i) => i.op === op);
const last = (stage: Stage, op: string): Instruction | undefined => ops(stage, op).at(-1);
const stage = (name: string): Stage | undefined => stages.find((s) => s.name === name);
/** A stage and the stages it is built `FROM`, nearest first. */
const lineage = (s: Stage): Stage[] => [s, ...(stage(s.from) ? lineage(stage(s.from) as Stage) : [])];
const runLines = (s: Stage): string[] => lineage(s).flatMap((x) => ops(x, 'RUN').map((i) => i.args));
const env = (s: Stage): Map<string, string> =>
  new Map(
    lineage(s)
      .reverse()
      .flatMap((x) => ops(x, 'ENV').flatMap((i) => assignments(i.args))),
  );

function files(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : [relative(ROOT, join(ROOT, dir, e.name))],
  );
}

/**
 * docker/Dockerfile's facts that matter in production, read from the file (no Docker engine runs here; the
 * image itself is never built by the tests): docs/deploy.md "The image" and docker/README.md.
 */
describe('docker/Dockerfile', () => {
  it('should end with a runtime stage on the same base image as the stage its node_modules comes from', () => {
    expect(runtime.name).toBe('runtime');
    const copy = ops(runtime, 'COPY').find((c) => / \/app\/node_modules /.test(c.args));
    const from = /--from=(\S+)/.exec(copy?.args ?? '')?.[1];
    const deps = stage(from ?? '');
    expect(deps).toBeDefined();
    // The native addon (better-sqlite3) is compiled for the base it was installed on.
    expect(lineage(deps as Stage).at(-1)?.from).toBe(runtime.from);
  });

  it('should ship production dependencies only', () => {
    const from = /--from=(\S+)/.exec(ops(runtime, 'COPY').find((c) => /node_modules/.test(c.args))?.args ?? '');
    const installs = runLines(stage(from?.[1] ?? '') as Stage).filter((r) => /\bnpm (ci|install|i|prune)\b/.test(r));
    expect(installs.length).toBeGreaterThan(0);
    for (const r of installs) expect(r).toMatch(/--omit=dev\b/);
    expect(runLines(runtime).join('\n')).not.toMatch(/\bnpm (ci|install|i)\b/);
    // Nothing else of the context: the build stage's dist/ and package.json (for "type": "module").
    for (const c of ops(runtime, 'COPY').filter((i) => !i.args.includes('--from='))) {
      expect(c.args).toBe('package.json ./package.json');
    }
  });

  it('should run as a numeric non-root uid:gid, the owner of DATA_DIR', () => {
    const user = last(runtime, 'USER')?.args ?? '';
    const [, uid, gid] = /^(\d+)(?::(\d+))?$/.exec(user) ?? [];
    expect(uid).toBeDefined();
    expect(Number(uid)).toBeGreaterThan(0);
    expect(Number(gid ?? uid)).toBeGreaterThan(0);
    const dataDir = env(runtime).get('DATA_DIR') as string;
    expect(
      runLines(runtime).some((r) => r.includes(`mkdir -p ${dataDir}`) && r.includes(`chown ${user} ${dataDir}`)),
    ).toBe(true);
  });

  it('should start node under tini, in exec form, on the file the build writes', () => {
    const entry = execForm(last(runtime, 'ENTRYPOINT')?.args ?? '');
    expect(entry).toEqual(['/usr/bin/tini', '--']);
    expect(runLines(runtime).some((r) => /apt-get install .*\btini\b/.test(r))).toBe(true);
    const cmd = execForm(last(runtime, 'CMD')?.args ?? '');
    expect(cmd).toEqual(['node', 'dist/src/main.js']);
    const nest = JSON.parse(read('nest-cli.json')) as { entryFile: string };
    const outDir = (JSON.parse(read('tsconfig.json')) as { compilerOptions: { outDir: string } }).compilerOptions
      .outDir;
    expect(join(outDir, `${nest.entryFile}.js`)).toBe(cmd?.[1]);
    expect(ops(stage('build') as Stage, 'RUN').map((i) => i.args)).toContain('npm run build');
  });

  it('should bake no secret into ENV or ARG, and only settings the product knows', () => {
    const all = [...globalArgs, ...stages.flatMap((s) => s.body)].filter((i) => i.op === 'ENV' || i.op === 'ARG');
    for (const [key, value] of all.flatMap((i) => assignments(i.args))) {
      expect(SECRET_SETTINGS).not.toContain(key);
      expect(key).not.toMatch(/SECRET|PASSWORD|PASSWD|TOKEN|_KEY$/i);
      expect(value).not.toMatch(/:\/\/[^/\s]*:[^@\s]*@/); // a URL with a password
    }
    const settings = readdirSync('src/config')
      .filter((f) => /^env.*\.dto\.ts$/.test(f))
      .map((f) => read(`src/config/${f}`))
      .join('\n');
    const runtimeEnv = Object.fromEntries(env(runtime));
    for (const key of Object.keys(runtimeEnv).filter((k) => k !== 'NODE_ENV')) {
      expect(settings).toMatch(new RegExp(`^  ${key}[?!]?:`, 'm'));
    }
    // Valid as they stand, for the image's user: the standalone shape in DATA_DIR, on the exposed port.
    const user = Number(/^\d+/.exec(last(runtime, 'USER')?.args ?? '')?.[0]);
    const config = loadConfig(runtimeEnv, user);
    expect(config.shape).toBe('standalone');
    expect(config.dataDir).toBe(runtimeEnv.DATA_DIR);
    expect(ops(runtime, 'EXPOSE').map((i) => i.args)).toEqual([String(config.http.port)]);
  });

  it('should probe a route the product serves', () => {
    const check = last(runtime, 'HEALTHCHECK')?.args ?? '';
    const path = /'(\/health\/[a-z]+)'/.exec(check)?.[1];
    const base = Reflect.getMetadata(PATH_METADATA, HealthController) as string;
    const proto = HealthController.prototype as unknown as Record<string, object>;
    const routes = Object.getOwnPropertyNames(proto)
      .filter((m) => m !== 'constructor')
      .map((m) => Reflect.getMetadata(PATH_METADATA, proto[m]) as unknown)
      .filter((p): p is string => typeof p === 'string')
      .map((p) => `/${base}/${p}`);
    expect(routes).toEqual(expect.arrayContaining(['/health/live', '/health/ready']));
    expect(path).toBeDefined();
    expect(routes).toContain(path);
  });

  it('should carry the OCI labels', () => {
    const labels = ops(runtime, 'LABEL')
      .map((i) => i.args)
      .join(' ');
    for (const k of ['title', 'description', 'licenses', 'version', 'revision', 'created']) {
      expect(labels).toContain(`org.opencontainers.image.${k}=`);
    }
    const license = (JSON.parse(read('package.json')) as { license: string }).license;
    expect(labels).toContain(`org.opencontainers.image.licenses="${license}"`);
  });
});

describe('.dockerignore', () => {
  it.each([
    'node_modules/jest/package.json',
    'examples/greeting/node_modules/x/index.js',
    'dist/src/main.js',
    '.git/HEAD',
    'data/tickwheel.sqlite',
    'data/secret.key',
    'coverage/lcov.info',
    'npm-debug.log',
    '.env',
    'docker/.env',
    '.env.local',
    'test/e2e/failover.e2e-spec.ts',
  ])('should keep %s out of the build context', (path) => {
    expect(dockerignoreExcludes(dockerignore, path)).toBe(true);
  });

  it('should keep in everything the build reads', () => {
    const build = stage('build') as Stage;
    const inputs = lineage(build)
      .flatMap((s) => ops(s, 'COPY'))
      .filter((c) => !c.args.includes('--from='))
      .flatMap((c) => c.args.split(' ').slice(0, -1))
      .filter((p) => p !== '.');
    const tsBuild = JSON.parse(read('tsconfig.build.json')) as { include: string[]; extends: string };
    const sourceDirs = tsBuild.include.map((g) => g.split('/')[0]).filter((d) => !d.includes('.'));
    expect(sourceDirs).toEqual(expect.arrayContaining(['src', 'examples']));
    // `npm run build` is `node scripts/build.mjs`, which imports scripts/build-lib.mjs.
    const pkg = JSON.parse(read('package.json')) as { scripts: { build: string } };
    const buildScripts = [...pkg.scripts.build.matchAll(/scripts\/[\w.-]+\.mjs/g)].map((m) => m[0]);
    expect(buildScripts).toEqual(['scripts/build.mjs']);
    const needed = [
      ...inputs,
      ...buildScripts,
      'scripts/build-lib.mjs',
      'nest-cli.json',
      'tsconfig.build.json',
      tsBuild.extends.replace(/^\.\//, ''),
      ...tsBuild.include.filter((g) => !g.includes('*')),
      ...sourceDirs.flatMap(files),
      ...files('console'), // bundled by build-lib.mjs (bundleConsole)
      'src/client/openapi-types.ts', // the types the console imports
    ];
    expect(needed.filter((p) => dockerignoreExcludes(dockerignore, p))).toEqual([]);
  });
});
