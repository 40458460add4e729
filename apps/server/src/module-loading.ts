import { existsSync, readFileSync } from 'node:fs';
import { enableCompileCache, registerHooks } from 'node:module';
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
 *   answers one case itself, the most common one: a relative import of a `.js` file inside an
 *   installed ES module package. It reads each folder's type once, and leaves every other
 *   resolution (bare names, our own sources, CommonJS, `require`) to Node.
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
// in the answer and goes on without it.
enableCompileCache();

const isRelative = (specifier: string) => specifier.startsWith('./') || specifier.startsWith('../');

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
    return nextResolve(specifier, context);
  },
});
