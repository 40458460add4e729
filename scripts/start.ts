import { main } from '../apps/server/src/cli/main.ts';
import { ensureWebBuild } from './web-build.ts';

// `npm start`: the web app is built first when missing or stale, then the server runs.
ensureWebBuild();
await main(['serve', ...process.argv.slice(2)]);
