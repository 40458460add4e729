#!/usr/bin/env node
// Plain JavaScript so that an older Node can at least say what is wrong: the server
// code is TypeScript run through Node 24's type stripping.
const major = Number(process.versions.node.split('.')[0]);
if (major < 24) {
  process.stderr.write(
    `docagent needs Node.js 24 or newer (this is ${process.version}). ` +
      'Run it through npm, which uses the Node 24 installed in node_modules: "npm start", "npx docagent ...".\n',
  );
  process.exit(1);
}
// Before the first TypeScript module, module-loading.ts itself, so that none is type-stripped again
// (module-loading.ts turns it on for everything else).
(await import('node:module')).enableCompileCache();
await import('../src/module-loading.ts');
const { main } = await import('../src/cli/main.ts');
await main(process.argv.slice(2));
