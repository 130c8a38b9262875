/** One Dockerfile instruction: its keyword (upper case), the rest of the line (continuations joined). */
export interface Instruction {
  op: string;
  args: string;
}

/** One build stage: its `AS` name (or its index), the image it starts `FROM`, its instructions. */
export interface Stage {
  name: string;
  from: string;
  body: Instruction[];
}

/**
 * Splits a Dockerfile into the ARGs before the first FROM and its stages. Handles `\` continuations and comment
 * lines (also inside a continuation, as BuildKit does); parser directives count as comments.
 */
export function parseDockerfile(text: string): { globalArgs: Instruction[]; stages: Stage[] } {
  const logical: string[] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    if (/^\s*#/.test(raw)) continue;
    const line = raw.trimEnd();
    if (line.endsWith('\\')) pending += line.slice(0, -1) + ' ';
    else {
      const whole = (pending + line).trim();
      pending = '';
      if (whole) logical.push(whole);
    }
  }
  const globalArgs: Instruction[] = [];
  const stages: Stage[] = [];
  for (const line of logical) {
    const [, op, args] = /^(\S+)\s*(.*)$/.exec(line) as RegExpExecArray;
    const ins = { op: op.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (ins.op === 'FROM') {
      const [from, , name] = ins.args.split(' ').filter((w) => !w.startsWith('--'));
      stages.push({ name: name ?? String(stages.length), from, body: [] });
    } else if (stages.length === 0) globalArgs.push(ins);
    else stages[stages.length - 1].body.push(ins);
  }
  return { globalArgs, stages };
}

/** The JSON array of an exec-form instruction (`CMD ["node", "x.js"]`), or null for the shell form. */
export function execForm(args: string): string[] | null {
  if (!args.startsWith('[')) return null;
  const parsed: unknown = JSON.parse(args);
  return Array.isArray(parsed) && parsed.every((a) => typeof a === 'string') ? parsed : null;
}

/** `KEY=value` pairs of an ENV or ARG instruction (`ARG NAME` alone gives an empty value). */
export function assignments(args: string): Array<[string, string]> {
  return [...args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)(?:=("[^"]*"|\S*))?/g)].map(([, k, v]) => [
    k,
    (v ?? '').replace(/^"|"$/g, ''),
  ]);
}

function patternRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*' && pattern[i + 1] === '*') {
      i++;
      if (pattern[i + 1] === '/') {
        i++;
        re += '(?:.*/)?';
      } else re += '.*';
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * Whether `.dockerignore` rules keep `path` (relative to the context root, `/`-separated) out of the build
 * context: Docker's rules, the last matching line wins, `!` re-includes, a rule matching a parent directory
 * matches everything under it, `**` spans directories.
 */
export function dockerignoreExcludes(dockerignore: string, path: string): boolean {
  const rules = dockerignore
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => ({ negate: l.startsWith('!'), re: patternRegex(l.replace(/^!/, '').replace(/^\/+|\/+$/g, '')) }));
  const parts = path.split('/');
  const candidates = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  let excluded = false;
  for (const rule of rules) if (candidates.some((c) => rule.re.test(c))) excluded = !rule.negate;
  return excluded;
}
