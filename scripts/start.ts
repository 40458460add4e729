import '../apps/server/src/module-loading.ts';
import { ensureWebBuild } from './web-build.ts';

// Imported once the hook above is registered: static imports all load before any module runs.
const { main } = await import('../apps/server/src/cli/main.ts');

// `npm start`: the web app is built first when missing or stale, then the server runs.
ensureWebBuild();
await main(['serve', ...process.argv.slice(2)]);
