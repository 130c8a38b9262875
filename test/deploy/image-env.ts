import { readFileSync } from 'node:fs';
import { execForm, parseDockerfile } from './docker-files.js';

/** The image the chart runs by default. */
export const DOCKERFILE = 'docker/Dockerfile';

/**
 * The `ENV` of the last stage of `dockerfile` (the runtime image), in order: `ENV K=V [K2=V2 ...]` with `\`
 * continuations, or the legacy `ENV K V`. Values may be double-quoted; `$VAR` references are not supported.
 * A container's own env (from Kubernetes) overrides these. The base image's ENV (PATH, NODE_VERSION) is not read.
 * @throws Error on an ENV line it cannot read.
 */
export function imageEnv(dockerfile = DOCKERFILE): Record<string, string> {
  const lines = readFileSync(dockerfile, 'utf8')
    .replace(/\\\r?\n/g, ' ')
    .split(/\r?\n/)
    .map((l) => l.trim());
  const stage = lines.slice(lines.map((l) => /^FROM\s/i.test(l)).lastIndexOf(true));
  const env: Record<string, string> = {};
  for (const line of stage.filter((l) => /^ENV\s/i.test(l))) {
    const body = line.slice(3).trim();
    if (body.includes('$')) throw new Error(`${dockerfile}: variable references in '${line}' are not read`);
    const legacy = /^([A-Za-z_]\w*)\s+(?!\S*=)(.*)$/.exec(body);
    if (legacy) {
      env[legacy[1]] = legacy[2];
      continue;
    }
    for (const pair of body.match(/[A-Za-z_]\w*=("[^"]*"|\S*)/g) ?? []) {
      const [k, v] = [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)];
      env[k] = v.startsWith('"') ? v.slice(1, -1) : v;
    }
  }
  return env;
}

/** What the image runs when a container sets no `command` (ENTRYPOINT) and no `args` (CMD), both in exec form. */
export interface ImageProcess {
  entrypoint: string[];
  cmd: string[];
}

/**
 * The last `ENTRYPOINT` and `CMD` of the last stage of `dockerfile` (the runtime image). A stage that sets
 * ENTRYPOINT but no CMD has an empty CMD (Docker resets the base image's).
 * @throws Error when the stage sets no ENTRYPOINT (the base image's is not read) or either is in shell form.
 */
export function imageProcess(dockerfile = DOCKERFILE): ImageProcess {
  const { stages } = parseDockerfile(readFileSync(dockerfile, 'utf8'));
  const body = stages[stages.length - 1]?.body ?? [];
  const last = (op: string) => body.filter((i) => i.op === op).pop();
  const form = (op: string, fallback: string[] | null): string[] => {
    const ins = last(op);
    if (!ins) {
      if (fallback) return fallback;
      throw new Error(`${dockerfile}: the runtime stage sets no ${op} (the base image's is not read)`);
    }
    const argv = execForm(ins.args);
    if (!argv) throw new Error(`${dockerfile}: ${op} ${ins.args} is not in exec form`);
    return argv;
  };
  return { entrypoint: form('ENTRYPOINT', null), cmd: form('CMD', []) };
}
