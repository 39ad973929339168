// Build: TypeScript to dist/, then the icons and codex files n8n loads next to the compiled nodes.
import { execFileSync } from 'node:child_process';
import { cpSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json')], { stdio: 'inherit', cwd: root });

let copied = 0;
function copyAssets(dir) {
	for (const name of readdirSync(dir)) {
		const path = join(dir, name);
		if (statSync(path).isDirectory()) copyAssets(path);
		else if (/\.(svg|png|node\.json)$/.test(name)) {
			cpSync(path, join(root, 'dist', relative(root, path)));
			copied++;
		}
	}
}
for (const dir of ['nodes', 'credentials']) copyAssets(join(root, dir));
console.log(`build: dist/ written, ${copied} icon and codex files copied`);
