/**
 * The report's browser app (src/report/app) as one IIFE script, built with esbuild (tsx's own,
 * as bin/cli-bundle.js does: Crucible does not depend on esbuild itself) when a report is
 * written. Building takes about 0.3 s, so the script is cached in node_modules/.cache/crucible,
 * named by the hash of every file it was built from (the app's and its packages'), and rebuilt
 * when one of them changes. The licences of the bundled packages travel inside the script.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const ENTRY = join(import.meta.dirname, 'app', 'main.js');
const CACHE = join(ROOT, 'node_modules', '.cache', 'crucible');
/** The files of the last script built (paths from ROOT), to hash them on the next report. */
const INPUTS = join(CACHE, 'report-app-inputs.json');

type Esbuild = typeof import('esbuild');
const esbuildRequire = () => createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
const esbuildVersion = () => (esbuildRequire()('esbuild/package.json') as { version: string }).version;

let built: Promise<string> | undefined;

/** The app's script, from the cache when nothing it was built from changed. */
export function appScript(): Promise<string> {
  built ??= Promise.resolve(cachedScript()).then((cached) => cached ?? build());
  return built;
}

function cachedScript(): string | undefined {
  try {
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8')) as string[];
    const file = scriptFile(hashFiles(inputs));
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Also hashes this file (how the script is built) and esbuild's version. */
function hashFiles(paths: readonly string[]): string {
  const hash = createHash('sha256')
    .update(readFileSync(import.meta.filename))
    .update(esbuildVersion());
  for (const path of [...paths].sort()) hash.update(`\0${path}\0`).update(readFileSync(join(ROOT, path)));
  return hash.digest('hex').slice(0, 16);
}

const scriptFile = (hash: string) => join(CACHE, `report-app-${hash}.js`);

async function build(): Promise<string> {
  const esbuild = esbuildRequire()('esbuild') as Esbuild;
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'iife',
    platform: 'browser',
    // DecompressionStream (the embedded data is gzipped) is in every browser since these.
    target: ['chrome103', 'firefox113', 'safari16.4'],
    minify: true,
    metafile: true,
    write: false,
    logLevel: 'silent',
    legalComments: 'none',
  });
  const inputs = Object.keys(result.metafile.inputs).map((path) => relative(ROOT, resolve(ROOT, path)));
  const script = `${result.outputFiles[0]!.text}\n${licenceNotices(inputs)}`;
  try {
    mkdirSync(CACHE, { recursive: true });
    writeAtomically(scriptFile(hashFiles(inputs)), script);
    writeAtomically(INPUTS, JSON.stringify(inputs));
  } catch {
    // A read-only install: the script is built again next time.
  }
  return script;
}

/** Each bundled package's name, version and licence text, as its licence asks of a copy. */
function licenceNotices(inputs: readonly string[]): string {
  const packages = new Set<string>();
  for (const path of inputs) {
    const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (match) packages.add(match[1]!);
  }
  return [...packages]
    .sort()
    .map((folder) => {
      const { name, version, license } = JSON.parse(readFileSync(join(ROOT, folder, 'package.json'), 'utf8')) as {
        name: string;
        version: string;
        license: string;
      };
      const file = readdirSync(join(ROOT, folder)).find((f) => /^licen[cs]e/i.test(f));
      const text = file ? readFileSync(join(ROOT, folder, file), 'utf8').trim() : `licence: ${license}`;
      return `/*! ${name} ${version} (${license})\n${text.replaceAll('*/', '* /')}\n*/`;
    })
    .join('\n');
}

function writeAtomically(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, path);
}
