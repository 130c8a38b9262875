import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { EXECUTION_OUTCOMES, KNOWN_LABELS } from './metric-labels.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const CHECK = join(HERE, 'labels-check.ts');

/** The compiler's messages for `code`, a module beside metric-labels.ts (no file is written). */
function typeErrors(code: string): string[] {
  const options = { strict: true, noEmit: true, module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022 };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (f) => f === CHECK || fileExists(f);
  host.readFile = (f) => (f === CHECK ? code : readFile(f));
  host.getSourceFile = (f, v, ...rest) =>
    f === CHECK ? ts.createSourceFile(f, code, v) : getSourceFile.call(host, f, v, ...rest);
  const program = ts.createProgram([CHECK], { ...options, types: [] }, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(CHECK))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

/** A counting site's check of `domain` against `labels` (two string unions), as the counting modules write it. */
const site = (domain: string, labels: string) =>
  `import type { LabelsMatch } from './metric-labels.js';\n` +
  `export const labels: LabelsMatch<${domain}, ${labels}> = true;\n`;

/**
 * The counting modules prove their domain types equal to these label sets with LabelsMatch; these cases run the
 * compiler over such a check, since what LabelsMatch does is refuse to compile.
 */
describe('LabelsMatch', () => {
  it('should compile when a domain and a label set have the same members, in any order', () => {
    expect(typeErrors(site(`'a' | 'b'`, `'b' | 'a'`))).toEqual([]);
  });

  it('should refuse a domain value without its label, naming it', () => {
    expect(typeErrors(site(`'a' | 'b'`, `'a'`))).toEqual([expect.stringContaining('unlabelled: "b"; unused: never')]);
  });

  it('should refuse a label without its domain value, naming it', () => {
    expect(typeErrors(site(`'a'`, `'a' | 'b'`))).toEqual([expect.stringContaining('unlabelled: never; unused: "b"')]);
  });
});

describe('KNOWN_LABELS', () => {
  it('should hold each label value of a counter once', () => {
    const lists = [...Object.values(KNOWN_LABELS).map((k) => k.values), EXECUTION_OUTCOMES];
    for (const values of lists) expect(new Set(values).size).toBe(values.length);
  });
});
