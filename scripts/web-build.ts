import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = fileURLToPath(new URL('../apps/web', import.meta.url));
const INPUTS = ['src', 'index.html', 'vite.config.ts', 'package.json', 'tsconfig.json'];

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/** True when the web app has no build, or a source file changed after the last one. */
export function webBuildIsStale(): boolean {
  const built = join(WEB, 'dist', 'index.html');
  if (!existsSync(built)) return true;
  const sources = Math.max(...INPUTS.map((p) => newestMtime(join(WEB, p))));
  return sources > statSync(built).mtimeMs;
}

/** Builds the web app with Vite when it is missing or stale. */
export function ensureWebBuild(): void {
  if (!webBuildIsStale()) return;
  process.stdout.write('Building the web app (apps/web)...\n');
  const result = spawnSync('npm', ['run', 'build', '--workspace', '@docagent/web'], { stdio: 'inherit' });
  if (result.status !== 0) throw new Error('The web app build failed; see the output above.');
}
