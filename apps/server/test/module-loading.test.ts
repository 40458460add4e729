import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const MODULE_LOADING = fileURLToPath(new URL('../src/module-loading.ts', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'docagent-module-loading-'));
after(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, content: string): void {
  mkdirSync(dirname(join(root, path)), { recursive: true });
  writeFileSync(join(root, path), content);
}

/** An installed package `dep` whose import and require answers say which copy they are. */
function dependency(folder: string, name: string): void {
  write(
    `${folder}/dep/package.json`,
    JSON.stringify({ name: 'dep', type: 'module', exports: { import: './esm.js', require: './cjs.cjs' } }),
  );
  write(`${folder}/dep/esm.js`, `export default '${name} import';\n`);
  write(`${folder}/dep/cjs.cjs`, `module.exports = '${name} require';\n`);
}

test('a bare name resolved once a package is what Node finds for each file of it', async () => {
  write('app/package.json', JSON.stringify({ name: 'app', type: 'module' }));
  dependency('app/node_modules', 'the package’s');
  // A folder with a node_modules of its own: its files find their own copy first.
  dependency('app/own/node_modules', 'the folder’s');
  write('app/one/first.mjs', "export { default } from 'dep';\n");
  write('app/two/deeper/second.mjs', "export { default } from 'dep';\n");
  write('app/own/third.mjs', "export { default } from 'dep';\n");
  write('app/own/below/fourth.mjs', "export { default } from 'dep';\n");
  write(
    'app/one/required.mjs',
    "import { createRequire } from 'node:module';\nexport default createRequire(import.meta.url)('dep');\n",
  );
  write(
    'app/main.mjs',
    [
      'const found = [];',
      "for (const file of ['./one/first.mjs', './two/deeper/second.mjs', './own/third.mjs', './own/below/fourth.mjs', './one/required.mjs'])",
      '  found.push((await import(file)).default);',
      'console.log(JSON.stringify(found));',
    ].join('\n'),
  );
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', MODULE_LOADING, join(root, 'app/main.mjs')], {
    env: { ...process.env, NODE_COMPILE_CACHE: join(root, 'compile-cache') },
  });
  assert.deepEqual(JSON.parse(stdout), [
    'the package’s import',
    'the package’s import',
    'the folder’s import',
    'the folder’s import',
    'the package’s require',
  ]);
});
