import ts from 'typescript';

const FIXTURE = 'test/fixtures/client-types/exact-bodies.ts';

/** The diagnostics of `tsc --strict --noEmit` over `file`, one line each: `<file>(<line>): TS<code> <message>`. */
function strictDiagnostics(file: string): string[] {
  const program = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'], // as tsconfig.json: fetch and Request from @types/node
    types: ['node'],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file ? `${d.file.fileName}(${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1})` : '';
    return `${where}: TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
  });
}

/**
 * The typed client refuses at compile time a body field its schema does not declare (the server's 400): each
 * `@ts-expect-error` of the fixture is an error once the types accept that body (TS2578, unused directive), and
 * the bodies spelt right must compile.
 */
describe('typed client bodies under tsc --strict', () => {
  it('should refuse every misspelt field of the fixture and accept every right one', () => {
    expect(strictDiagnostics(FIXTURE)).toEqual([]);
  }, 120_000);
});
