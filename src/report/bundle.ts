/**
 * The report's browser app (src/report/app) as one IIFE script, built with esbuild (tsx's own,
 * as bin/cli-bundle.js does: Crucible does not depend on esbuild itself) when a report is
 * written. Building takes about 0.3 s, so the script is cached in node_modules/.cache/crucible,
 * named by the hash of every file it was built from (the app's and its packages'), and rebuilt
 * when one of them changes. The licences of the bundled packages travel inside the script.
 * The dashboard of `crucible serve` (app/dashboard/main.js, the same views) is a second entry,
 * built and cached the same way under its own name.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
/** The scripts: the report's, and the dashboard's. */
const ENTRIES = {
  report: join(import.meta.dirname, 'app', 'main.js'),
  dashboard: join(import.meta.dirname, 'app', 'dashboard', 'main.js'),
} as const;
export type AppEntry = keyof typeof ENTRIES;
const CACHE = join(ROOT, 'node_modules', '.cache', 'crucible');
/** The files of an entry's last script built (paths from ROOT), to hash them on the next report. */
const inputsFile = (entry: AppEntry) => join(CACHE, `${entry}-app-inputs.json`);

type Esbuild = typeof import('esbuild');
const esbuildRequire = () => createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
const esbuildVersion = () => (esbuildRequire()('esbuild/package.json') as { version: string }).version;

const built = new Map<AppEntry, Promise<string>>();

/** The app's script (the report's, or the dashboard's), from the cache when nothing it was built from changed. */
export function appScript(entry: AppEntry = 'report'): Promise<string> {
  let script = built.get(entry);
  if (!script) {
    script = Promise.resolve(cachedScript(entry)).then((cached) => cached ?? build(entry));
    // A failed build is tried again by the next caller.
    script.catch(() => built.delete(entry));
    built.set(entry, script);
  }
  return script;
}

function cachedScript(entry: AppEntry): string | undefined {
  try {
    const inputs = JSON.parse(readFileSync(inputsFile(entry), 'utf8')) as string[];
    const file = scriptFile(entry, hashFiles(inputs));
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

const scriptFile = (entry: AppEntry, hash: string) => join(CACHE, `${entry}-app-${hash}.js`);

async function build(entry: AppEntry): Promise<string> {
  const esbuild = esbuildRequire()('esbuild') as Esbuild;
  const result = await esbuild.build({
    entryPoints: [ENTRIES[entry]],
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
    writeAtomically(scriptFile(entry, hashFiles(inputs)), script);
    writeAtomically(inputsFile(entry), JSON.stringify(inputs));
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
