// Build: TypeScript type-checked by tsc, then each file n8n loads (the nodes and credentials listed
// in package.json "n8n") bundled by esbuild with the libraries it uses (zod, papaparse), so the
// published package has no runtime dependencies: n8n Cloud and verified community nodes accept
// none. n8n-workflow stays external (a peer dependency: n8n provides it). Then the icons and
// codex files n8n reads next to the compiled nodes. The bundled libraries are minified (nobody
// reads zod's internals in a stack trace); the package's own code keeps its names and lines.
import { execFileSync } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const esbuild = require('esbuild');

rmSync(join(root, 'dist'), { recursive: true, force: true });
// Types checked (and nothing written) the way tsconfig.json says.
execFileSync(
	process.execPath,
	[require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.json'), '--noEmit'],
	{ stdio: 'inherit', cwd: root },
);

const { n8n } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const entries = [...n8n.credentials, ...n8n.nodes].map((file) =>
	join(root, file.replace(/^dist\//, '').replace(/\.js$/, '.ts')),
);
// Each library file minified as it is loaded; esbuild then prints it into the bundle with the rest.
const minifiedLibraries = {
	name: 'minified-libraries',
	setup(build) {
		build.onLoad({ filter: /[\\/]node_modules[\\/].*\.[cm]?js$/ }, ({ path }) => ({
			contents: esbuild.transformSync(readFileSync(path, 'utf8'), {
				minify: true,
				legalComments: 'inline',
				sourcefile: path,
			}).code,
			loader: 'js',
		}));
	},
};
const result = await esbuild.build({
	entryPoints: entries,
	outbase: root,
	outdir: join(root, 'dist'),
	bundle: true,
	platform: 'node',
	target: 'node20',
	format: 'cjs',
	// Provided by n8n at run time; everything else the nodes import is inside the bundle.
	external: ['n8n-workflow'],
	// papaparse's package.json "browser" field would swap in its browser build; node is the target.
	mainFields: ['main', 'module'],
	// What n8n's community-node rules forbid inside the bundled libraries, routed through n8n:
	// papaparse's unused `require('stream')` gets a stand-in, timers and console go to n8n-workflow.
	alias: { stream: join(root, 'scripts/shims/no-node-stream.cjs') },
	inject: [join(root, 'scripts/shims/n8n-globals.mjs')],
	sourcemap: true,
	sourcesContent: false,
	legalComments: 'inline',
	// Our code keeps its names and lines; only its syntax is shortened (`!0` for `true`,
	// `let` for `const`, an `if` that returns becomes `?:`).
	minifySyntax: true,
	plugins: [minifiedLibraries],
	logLevel: 'warning',
	metafile: true,
});
const bundled = new Set(
	Object.keys(result.metafile.inputs)
		.map((input) =>
			input
				.split('node_modules/')[1]
				?.split('/')
				.slice(0, input.includes('node_modules/@') ? 2 : 1)
				.join('/'),
		)
		.filter(Boolean),
);

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
console.log(
	`build: dist/ written, ${entries.length} bundles (with ${[...bundled].sort().join(', ') || 'no library'}), ${copied} icon and codex files copied`,
);
