import { existsSync, globSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/**
 * Which test files use the test database: those that import the module handing it out, directly
 * or through other modules of this repository. The others (pure functions, the fake provider, the
 * sandboxes, the web app's helpers) run the same on either database, so `npm test` runs them once.
 * `test-database.ts` checks the answer as it runs: a file this missed fails the embedded pass.
 */
const TEST_DATABASE = resolve('packages/core/src/testing/test-database.ts');

/** Where each workspace package's entry points are: `@docagent/core/testing` → its file. */
function workspaceEntries(): Map<string, string> {
  const entries = new Map<string, string>();
  for (const manifest of globSync(['packages/*/package.json', 'apps/*/package.json'])) {
    const { name, exports } = JSON.parse(readFileSync(manifest, 'utf8')) as { name: string; exports?: unknown };
    const map = typeof exports === 'string' ? { '.': exports } : ((exports ?? {}) as Record<string, unknown>);
    for (const [subpath, file] of Object.entries(map)) {
      if (typeof file !== 'string') continue;
      entries.set(subpath === '.' ? name : `${name}/${subpath.slice(2)}`, resolve(dirname(manifest), file));
    }
  }
  return entries;
}

// Static and dynamic imports and re-exports with a literal specifier.
const IMPORT = /(?:\bfrom|\bimport\(?)\s*['"]([^'"]+)['"]/g;

export function filesUsingTestDatabase(files: string[]): Set<string> {
  const entries = workspaceEntries();
  const importsOf = new Map<string, string[]>();
  const imports = (file: string): string[] => {
    let found = importsOf.get(file);
    if (!found) {
      found = [];
      if (file.endsWith('.ts') && existsSync(file)) {
        for (const [, specifier] of readFileSync(file, 'utf8').matchAll(IMPORT)) {
          const target = specifier.startsWith('.') ? resolve(dirname(file), specifier) : entries.get(specifier);
          if (target) found.push(target);
        }
      }
      importsOf.set(file, found);
    }
    return found;
  };
  const reaches = (file: string): boolean => {
    const seen = new Set([file]);
    for (const module of seen) {
      if (module === TEST_DATABASE) return true;
      for (const target of imports(module)) seen.add(target);
    }
    return false;
  };
  return new Set(files.map((file) => resolve(file)).filter(reaches));
}
