import { existsSync, readFileSync } from 'node:fs';
import { enableCompileCache, registerHooks } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * How a docagent process loads its modules; imported before anything else by every entry point
 * (`bin/docagent.js`, `npm start`, and the test runner with `--import`).
 *
 * - Node's compile cache keeps each module's compiled code, and the TypeScript of our sources with
 *   its types stripped, in the temporary folder (`NODE_COMPILE_CACHE` moves it), so a process after
 *   the first compiles little: loading the core package fell from 0.57 to 0.39 s.
 * - Node (24 and 26 alike) finds the format of each `.js` module from the nearest package.json's
 *   "type", and on the way parses that package.json's whole "exports" field again:
 *   `getPackageScopeConfig` spreads an object whose lazy `exports` getter parses it. drizzle-orm has
 *   175 KB of exports and loads some 400 files, so importing it took 0.5 to 0.8 s. The hook below
 *   answers a relative import of a `.js` file inside an installed ES module package itself,
 *   reading each folder's type once.
 * - A bare name (`drizzle-orm`, `zod`, `@docagent/core`) imported by our own sources costs Node
 *   the same parsing, once for every file that imports it: 287 such imports took 0.4 s of loading
 *   the server. Every file of one package of ours finds a bare name in the same place (Node looks
 *   in the `node_modules` folders above the file, and ours have none below a package's root), so
 *   the hook resolves each name once a package.
 * Every other resolution (from inside installed packages, of paths and URLs, with import
 * attributes) goes to Node as it came.
 */

/**
 * The "type" of the package.json nearest to each folder looked at; null when it has none. Walked
 * here rather than asked of `module.findPackageJSON`, which goes through the same lookup as Node's
 * resolution and took as long (drizzle-orm: 410 ms against 40 ms).
 */
const typeOfFolder = new Map<string, string | null>();

function packageType(folder: string): string | null {
  const known = typeOfFolder.get(folder);
  if (known !== undefined) return known;
  let type: string | null = null;
  const file = join(folder, 'package.json');
  if (existsSync(file)) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      const declared = typeof parsed === 'object' && parsed !== null ? (parsed as { type?: unknown }).type : undefined;
      type = typeof declared === 'string' ? declared : null;
    } catch {
      // Node reports a broken package.json itself, with its own message.
      type = null;
    }
  } else {
    // Node's own walk stops at a node_modules folder: a file there has no package above it.
    const parent = dirname(folder);
    type = parent === folder || folder.endsWith('/node_modules') ? null : packageType(parent);
  }
  typeOfFolder.set(folder, type);
  return type;
}

// A cache that cannot be used (a read-only temporary folder) only costs the speed: Node says why
// in the answer and goes on without it. Named in the environment too, so that worker threads (the
// embedded database's, the PDF readers') and child Node processes have it from their first module:
// Node reads NODE_COMPILE_CACHE as a thread or process starts, and without it each one stripped its
// TypeScript again, loading Node's TypeScript parser to do it.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'node-compile-cache');
enableCompileCache();

const isRelative = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');
const isBare = (specifier: string) =>
  !isRelative(specifier) && !specifier.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(specifier);

/**
 * The root of the package of ours a folder is in, where every file below finds bare names alike;
 * null when it is not one of ours (inside node_modules) or a `node_modules` folder lies between
 * it and that root, which would answer first for the files below it.
 */
const packageRootOfFolder = new Map<string, string | null>();

function packageRootOf(folder: string): string | null {
  const known = packageRootOfFolder.get(folder);
  if (known !== undefined) return known;
  let root: string | null;
  if (folder.includes('/node_modules')) root = null;
  else if (existsSync(join(folder, 'package.json'))) root = folder;
  else if (existsSync(join(folder, 'node_modules'))) root = null;
  else {
    const parent = dirname(folder);
    root = parent === folder ? null : packageRootOf(parent);
  }
  packageRootOfFolder.set(folder, root);
  return root;
}

/** Bare names resolved for our packages: package root, conditions and name → Node's answer. */
const bareResolved = new Map<string, { url: string; format: string | null | undefined }>();

registerHooks({
  resolve(specifier, context, nextResolve) {
    const parent = context.parentURL;
    if (
      parent?.startsWith('file:') &&
      parent.includes('/node_modules/') &&
      isRelative(specifier) &&
      specifier.endsWith('.js') &&
      context.conditions?.includes('import')
    ) {
      const url = new URL(specifier, parent);
      const path = fileURLToPath(url);
      if (path.includes('/node_modules/') && existsSync(path) && packageType(dirname(path)) === 'module') {
        return { url: url.href, format: 'module', shortCircuit: true };
      }
    }
    const root =
      parent?.startsWith('file:') && isBare(specifier) && Object.keys(context.importAttributes ?? {}).length === 0
        ? packageRootOf(dirname(fileURLToPath(parent)))
        : null;
    if (root === null) return nextResolve(specifier, context);
    const key = `${root}\0${context.conditions?.join(',')}\0${specifier}`;
    const known = bareResolved.get(key);
    if (known) return { ...known, shortCircuit: true };
    const resolved = nextResolve(specifier, context);
    bareResolved.set(key, { url: resolved.url, format: resolved.format });
    return resolved;
  },
});
