/**
 * The report's browser app (src/report/app) as one IIFE script, built with esbuild (tsx's own,
 * as bin/cli-bundle.js does: Crucible does not depend on esbuild itself) when a report is
 * written. Building takes about 0.3 s, so the script is cached in node_modules/.cache/crucible,
 * named by the hash of every file it was built from (the app's and its packages'), and rebuilt
 * when one of them changes. The licences of the bundled packages travel inside the script.
 * The dashboard of `crucible serve` (app/dashboard/main.js, the same views) is a second entry,
 * built and cached the same way under its own name. Each installed pack's own view
 * (PackModule.reportView, a module in the pack's folder) is bundled in through the virtual
 * module `crucible:pack-views`, so a pack's view is registered with the pack, not here.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { installedPacks } from '../domains/registry.js';

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
    script = packViews().then((views) => cachedScript(entry, views) ?? build(entry, views));
    // A failed build is tried again by the next caller.
    script.catch(() => built.delete(entry));
    built.set(entry, script);
  }
  return script;
}

/** The installed packs' report views (absolute paths), in the registry's order. */
async function packViews(): Promise<readonly string[]> {
  return (await installedPacks()).flatMap((pack) => (pack.reportView ? [resolve(pack.reportView)] : []));
}

const PACK_VIEWS = 'crucible:pack-views';

/** `crucible:pack-views`: imports each pack's view and registers them in order. */
function packViewsModule(views: readonly string[]): string {
  const imports = views.map((path, i) => `import view${i} from ${JSON.stringify(path)};`);
  const calls = views.map((_, i) => `view${i}(kit);`);
  return `${imports.join('\n')}\nexport function registerPackViews(kit) {\n${calls.join('\n')}\n}\n`;
}

function cachedScript(entry: AppEntry, views: readonly string[]): string | undefined {
  try {
    const inputs = JSON.parse(readFileSync(inputsFile(entry), 'utf8')) as string[];
    const file = scriptFile(entry, hashFiles(inputs, views));
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  } catch {
    return undefined;
  }
}

/** Also hashes this file (how the script is built), esbuild's version and which pack views are in. */
function hashFiles(paths: readonly string[], views: readonly string[]): string {
  const hash = createHash('sha256')
    .update(readFileSync(import.meta.filename))
    .update(esbuildVersion())
    .update(JSON.stringify(views));
  for (const path of [...paths].sort()) hash.update(`\0${path}\0`).update(readFileSync(join(ROOT, path)));
  return hash.digest('hex').slice(0, 16);
}

const scriptFile = (entry: AppEntry, hash: string) => join(CACHE, `${entry}-app-${hash}.js`);

async function build(entry: AppEntry, views: readonly string[]): Promise<string> {
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
    plugins: [
      {
        name: 'pack-views',
        setup(build) {
          build.onResolve({ filter: /^crucible:pack-views$/ }, () => ({ path: PACK_VIEWS, namespace: 'pack-views' }));
          build.onLoad({ filter: /.*/, namespace: 'pack-views' }, () => ({
            contents: packViewsModule(views),
            resolveDir: ROOT,
            loader: 'js',
          }));
        },
      },
    ],
  });
  // The generated module is not a file; the views it imports are inputs of their own.
  const inputs = Object.keys(result.metafile.inputs)
    .filter((path) => !path.startsWith('pack-views:'))
    .map((path) => relative(ROOT, resolve(ROOT, path)));
  const script = `${result.outputFiles[0]!.text}\n${licenceNotices(inputs)}`;
  try {
    mkdirSync(CACHE, { recursive: true });
    writeAtomically(scriptFile(entry, hashFiles(inputs, views)), script);
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
