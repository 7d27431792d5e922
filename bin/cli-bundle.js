/**
 * The command line as one JavaScript file, so that it starts without tsx: registering tsx
 * costs about 0.2 s (its loader thread and esbuild), more than everything `--help` needs.
 * src/cli/main.ts and the option modules it imports (commander and constants only, see
 * src/cli/shared-options.ts) are bundled by esbuild, tsx's own, into
 * node_modules/.cache/crucible. The file is named by the hash of the sources it holds and
 * is rebuilt when any of them changes, so an edit is never run stale and there is no build
 * step to forget. The commands' code stays out of it: each action's `import()` is left to
 * tsx, which bin/crucible.js registers only when a command runs.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const ENTRY = join(ROOT, 'src', 'cli', 'main.ts');
const CACHE = join(ROOT, 'node_modules', '.cache', 'crucible');
/** The sources of the last bundle built (paths from ROOT), to hash them on the next start. */
const INPUTS = join(CACHE, 'cli-inputs.json');
/** A bundle of earlier sources is removed this long after it was built (a command just started may be loading it). */
const OLD_BUNDLE_MS = 60 * 60 * 1000;

/**
 * The URL of the bundle, built first if its sources changed; undefined when it cannot be
 * built or written (a syntax error, a read-only install): then tsx runs the sources, and
 * reports any error in them as it always did.
 */
export async function cliBundle() {
  try {
    return pathToFileURL(cachedBundle() ?? (await build())).href;
  } catch {
    return undefined;
  }
}

/** The bundle of the sources as they are now, if it was built; not if any changed (or is gone). */
function cachedBundle() {
  try {
    const inputs = JSON.parse(readFileSync(INPUTS, 'utf8'));
    const file = bundleFile(hashSources(inputs.map((path) => [path, readFileSync(join(ROOT, path), 'utf8')])));
    return existsSync(file) ? file : undefined;
  } catch {
    return undefined;
  }
}

/** Also hashes this file and esbuild's version: a change in how the bundle is made rebuilds it. */
function hashSources(sources) {
  const hash = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(esbuildPackage().version);
  for (const [path, text] of [...sources].sort(([a], [b]) => (a < b ? -1 : 1))) hash.update(`\0${path}\0${text}`);
  return hash.digest('hex').slice(0, 16);
}

const bundleFile = (hash) => join(CACHE, `cli-${hash}.mjs`);

/** tsx's esbuild (crucible does not depend on esbuild itself). */
function esbuildRequire() {
  return createRequire(createRequire(import.meta.url).resolve('tsx/package.json'));
}
const esbuildPackage = () => esbuildRequire()('esbuild/package.json');

async function build() {
  const esbuild = esbuildRequire()('esbuild');
  const sources = new Map();
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    absWorkingDir: ROOT,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    write: false,
    logLevel: 'silent',
    plugins: [
      {
        name: 'as-from-source',
        setup(build) {
          // An action's import() of a command's code: left to tsx, from the source file.
          build.onResolve({ filter: /^\.\.?\// }, (args) => {
            if (args.kind !== 'dynamic-import') return undefined;
            const ts = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
            return {
              path: pathToFileURL(existsSync(ts) ? ts : resolve(args.resolveDir, args.path)).href,
              external: true,
            };
          });
          // import.meta is each source file's own, as when tsx runs it (main.ts finds package.json by it).
          build.onLoad({ filter: /\.ts$/ }, (args) => {
            const text = readFileSync(args.path, 'utf8');
            sources.set(relative(ROOT, args.path), text);
            const meta = { url: pathToFileURL(args.path).href, filename: args.path, dirname: dirname(args.path) };
            return {
              contents: text.replace(/\bimport\.meta\.(url|filename|dirname)\b/g, (_, key) =>
                JSON.stringify(meta[key]),
              ),
              loader: 'ts',
            };
          });
        },
      },
    ],
  });
  const file = bundleFile(hashSources(sources));
  mkdirSync(CACHE, { recursive: true });
  // Written aside and renamed: several commands started at once may all build it.
  writeAtomically(file, result.outputFiles[0].text);
  writeAtomically(INPUTS, JSON.stringify([...sources.keys()]));
  removeOldBundles(file);
  return file;
}

function removeOldBundles(current) {
  for (const name of readdirSync(CACHE)) {
    const path = join(CACHE, name);
    if (path === current || !/^cli-[0-9a-f]+\.mjs$/.test(name)) continue;
    try {
      if (Date.now() - statSync(path).mtimeMs > OLD_BUNDLE_MS) rmSync(path, { force: true });
    } catch {
      // Removed by another command at the same moment.
    }
  }
}

function writeAtomically(path, text) {
  const aside = `${path}.${process.pid}.tmp`;
  writeFileSync(aside, text);
  renameSync(aside, path);
}
