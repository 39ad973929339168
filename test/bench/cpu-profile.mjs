// Reads a V8 .cpuprofile (from `node --cpu-prof`) and prints where the time went:
// self time by function and by file, and the time spent under each of this package's functions.
// Usage: node test/bench/cpu-profile.mjs <file.cpuprofile> [--top 30] [--match
// n8n-nodes-audience-messaging]
import { readFileSync } from 'node:fs';

const [file] = process.argv
	.slice(2)
	.filter((a, i, all) => !a.startsWith('--') && !all[i - 1]?.startsWith('--'));
const option = (name, fallback) => {
	const index = process.argv.indexOf(`--${name}`);
	return index > 0 ? process.argv[index + 1] : fallback;
};
const TOP = Number(option('top', '30'));
const MATCH = option('match', 'n8n-nodes-audience-messaging');
if (!file) {
	console.error(
		'usage: node test/bench/cpu-profile.mjs <file.cpuprofile> [--top 30] [--match <path part>]',
	);
	process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map();
for (const node of profile.nodes)
	for (const child of node.children ?? []) parent.set(child, node.id);
const selfUs = new Map();
for (let i = 0; i < profile.samples.length; i++)
	selfUs.set(
		profile.samples[i],
		(selfUs.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0),
	);
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
const name = (node) => {
	const { functionName, url, lineNumber } = node.callFrame;
	return `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\//, '')}:${lineNumber + 1}`;
};
const add = (map, key, us) => map.set(key, (map.get(key) ?? 0) + us);
const selfByFunction = new Map();
const selfByFile = new Map();
const underPackage = new Map();
for (const [id, us] of selfUs) {
	const node = byId.get(id);
	add(selfByFunction, name(node), us);
	add(
		selfByFile,
		node.callFrame.url.replace(/^.*node_modules\//, '') || node.callFrame.functionName,
		us,
	);
	// Inclusive time of this package's frames: each sample counted once per distinct frame on its
	// stack.
	const seen = new Set();
	for (let at = id; at !== undefined; at = parent.get(at)) {
		const frame = byId.get(at);
		if (frame.callFrame.url.includes(MATCH)) {
			const key = name(frame);
			if (!seen.has(key)) {
				add(underPackage, key, us);
				seen.add(key);
			}
		}
	}
}
const print = (title, map) => {
	console.log(`\n${title}`);
	for (const [key, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP))
		console.log(
			`${(us / 1000).toFixed(0).padStart(8)} ms ${((us / total) * 100).toFixed(1).padStart(5)} %  ${key}`,
		);
};
console.log(`${file}: ${(total / 1000).toFixed(0)} ms sampled`);
print('self time by function', selfByFunction);
print('self time by file', selfByFile);
print(`time under functions of files matching "${MATCH}" (inclusive)`, underPackage);
