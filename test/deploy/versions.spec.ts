import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = process.cwd();
const CHART = 'deploy/helm/tickwheel';

/** The files that name a release of Tickwheel: the chart, its values and examples, the image, the docs. */
function versionedFiles(): string[] {
  const under = (dir: string, ext: RegExp) =>
    readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
      .filter((f) => ext.test(f))
      .map((f) => `${dir}/${f}`);
  return [
    'README.md',
    'docker/Dockerfile',
    'docker/README.md',
    'docker/compose.yaml',
    ...under('docs', /\.(md|Dockerfile)$/),
    ...under(CHART, /\.yaml$/),
  ].sort();
}

// Where a file names a release: an image tag or tarball (`tickwheel:0.2.0`, `tickwheel-0.2.0.tgz`), a build argument
// (`VERSION=0.2.0`), a helm value (`image.tag=0.2.0`, `tag: '0.2.0'`), the chart's `version:` and `appVersion:`.
const MENTION =
  /(?:tickwheel[:-]|VERSION=|image\.tag=|^\s*tag:\s*'?|^version:\s*'?|^appVersion:\s*'?)v?(\d+\.\d+\.\d+)/gm;

/**
 * One line per file that names a release other than `version` (package.json's), with the line numbers and what
 * they say; a Chart.yaml without both `version` and `appVersion` counts too. `read` gives a file's text.
 */
export function versionDrift(version: string, files: string[], read: (path: string) => string): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const text = read(file);
    const wrong = [...text.matchAll(MENTION)]
      .filter((m) => m[1] !== version)
      .map((m) => `${text.slice(0, m.index).split('\n').length}: ${m[0].trim()}`);
    if (file.endsWith('Chart.yaml') && !(/^version: /m.test(text) && /^appVersion: /m.test(text)))
      wrong.push('no version or appVersion');
    if (wrong.length > 0) problems.push(`${file} says ${wrong.join(', ')}; package.json says ${version}`);
  }
  return problems;
}

describe('every version follows package.json', () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');
  const files = versionedFiles();

  it('should find the chart, the image and the docs that name a release', () => {
    const naming = files.filter((f) => [...read(f).matchAll(MENTION)].length > 0);
    expect(naming).toEqual(
      expect.arrayContaining([
        `${CHART}/Chart.yaml`,
        `${CHART}/examples/production.yaml`,
        'docker/Dockerfile',
        'docker/README.md',
        'docs/deploy.md',
        'README.md',
      ]),
    );
  });

  it('should name no other release than package.json', () => {
    expect(versionDrift(version, files, read)).toEqual([]);
  });

  it('should report a file that drifted, one line per file', () => {
    const planted: Record<string, string> = {
      'Chart.yaml': "version: 0.1.0\nappVersion: '0.2.0'\n",
      Dockerfile: 'ARG VERSION=0.1.0\nFROM x\n',
      'README.md': 'docker run tickwheel:0.1.0\nnpm install ./tickwheel-0.1.0.tgz\n',
      'values.yaml': "image:\n  tag: ''\n",
    };
    expect(versionDrift('0.2.0', Object.keys(planted), (f) => planted[f])).toEqual([
      'Chart.yaml says 1: version: 0.1.0; package.json says 0.2.0',
      'Dockerfile says 1: VERSION=0.1.0; package.json says 0.2.0',
      'README.md says 1: tickwheel:0.1.0, 2: tickwheel-0.1.0; package.json says 0.2.0',
    ]);
  });
});
