import ts from 'typescript';

/**
 * TypeScript support: transpiling (what runs) and type checking (what is reported).
 * Type errors never fail a candidate here, callers decide. A candidate's text can make the
 * compiler exponential or gigabytes hungry, so Crucible calls these only in the compiler's own
 * processes (typescript-service.ts), never on its event loop; trusted text may call them directly.
 */

const TRANSPILE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  // `import fs from 'fs'` of a CommonJS module gets its exports, as node's ESM loader gives them.
  esModuleInterop: true,
  sourceMap: false,
  inlineSourceMap: false,
};

export interface Transpiled {
  readonly code: string;
  /** Syntax errors, as "line L, column C: TS1005: ';' expected." */
  readonly errors: readonly string[];
}

function describe(diagnostic: ts.Diagnostic): string {
  const text = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return `TS${diagnostic.code}: ${text}`;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `line ${line + 1}, column ${character + 1}: TS${diagnostic.code}: ${text}`;
}

/** TypeScript to CommonJS JavaScript (ES2022). Only syntax is checked. */
export function transpile(source: string, fileName = 'candidate.ts'): Transpiled {
  const out = ts.transpileModule(source, { compilerOptions: TRANSPILE_OPTIONS, reportDiagnostics: true, fileName });
  const errors = (out.diagnostics ?? [])
    .filter((d) => d.category === ts.DiagnosticCategory.Error && d.file)
    .map(describe);
  return { code: out.outputText, errors };
}

// --- type checking ------------------------------------------------------------------
// As `tsc --target esnext file.ts` (MultiPL-E's check before running TypeScript): the
// default library (ES + DOM, which declares `console`), not strict. TypeScript 6 made
// strict the default, so it is turned off explicitly.
const CHECK_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ESNext,
  module: ts.ModuleKind.CommonJS,
  strict: false,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};
const VIRTUAL = '/crucible/candidate.ts';
const libCache = new Map<string, ts.SourceFile | undefined>();
let previous: ts.Program | undefined;

function libFile(fileName: string): ts.SourceFile | undefined {
  if (!libCache.has(fileName)) {
    const text = ts.sys.readFile(fileName);
    libCache.set(
      fileName,
      text === undefined ? undefined : ts.createSourceFile(fileName, text, ts.ScriptTarget.ESNext, true),
    );
  }
  return libCache.get(fileName);
}

/**
 * Type errors of `program` (followed by `extra`, e.g. the tests, as MultiPL-E compiles
 * them together), as "line L, column C: TSnnnn: message". Library files are parsed once
 * per process and reused, so a check takes tens of milliseconds.
 */
export function typeCheck(program: string, extra?: string): string[] {
  const text = extra ? `${program}\n${extra}` : program;
  const file = ts.createSourceFile(VIRTUAL, text, ts.ScriptTarget.ESNext, true);
  const host: ts.CompilerHost = {
    getSourceFile: (name) => (name === VIRTUAL ? file : libFile(name)),
    getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
    writeFile: () => undefined,
    getCurrentDirectory: () => '/crucible',
    getDirectories: () => [],
    getCanonicalFileName: (name) => name,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (name) => name === VIRTUAL || ts.sys.fileExists(name),
    readFile: (name) => (name === VIRTUAL ? text : ts.sys.readFile(name)),
  };
  const checked = ts.createProgram({
    rootNames: [VIRTUAL],
    options: CHECK_OPTIONS,
    host,
    ...(previous ? { oldProgram: previous } : {}),
  });
  previous = checked;
  const diagnostics = [...checked.getSyntacticDiagnostics(file), ...checked.getSemanticDiagnostics(file)];
  return diagnostics.filter((d) => d.category === ts.DiagnosticCategory.Error).map(describe);
}
