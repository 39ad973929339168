/**
 * A node's row in n8n's processed_data table (the store of Skip Messages Sent Before), written
 * straight into n8n's database (SQLite, or PostgreSQL in queue mode) with the runtime's own
 * drivers: a history made full before a test, as 100,000 earlier messages would leave it.
 */
import { join } from 'node:path';

import { databaseOf, getRuntime, runProcess } from './n8n-harness';
import type { N8nUserFolder } from './n8n-harness';

/**
 * Puts `count` values (md5 hashes, base64, as n8n keeps them; of values no test gives) in the
 * history of node `nodeId` of workflow `workflowId`, replacing what it held.
 */
export async function fillNodeHistory(
	folder: N8nUserFolder,
	workflowId: string,
	nodeId: string,
	count: number,
): Promise<void> {
	const rt = getRuntime();
	const modules = join(rt.runtimeDir, 'node_modules');
	const env = folder.env ?? {};
	const postgres = env.DB_TYPE === 'postgresdb';
	const remove = 'DELETE FROM processed_data WHERE "workflowId" = $1 AND context = $2';
	const insert = 'INSERT INTO processed_data ("workflowId", context, value) VALUES ($1, $2, $3)';
	const write = postgres
		? `const { Client } = require(${JSON.stringify(join(modules, 'pg'))});
			const client = new Client(JSON.parse(process.argv[1]));
			await client.connect();
			try {
				await client.query(${JSON.stringify(remove)}, params.slice(0, 2));
				await client.query(${JSON.stringify(insert)}, params);
			} finally { await client.end(); }`
		: `const sqlite3 = require(${JSON.stringify(join(modules, 'sqlite3'))});
			const db = new sqlite3.Database(process.argv[1]);
			const run = (sql) => new Promise((resolve, reject) => db.run(sql.replace(/\\$\\d/g, '?'), sql === ${JSON.stringify(remove)} ? params.slice(0, 2) : params, (error) => (error ? reject(error) : resolve())));
			try { await run(${JSON.stringify(remove)}); await run(${JSON.stringify(insert)}); } finally { db.close(); }`;
	const script = `
		const { createHash } = require('node:crypto');
		(async () => {
			const data = Array.from({ length: ${count} }, (_, i) => createHash('md5').update('filler ' + i).digest('base64'));
			const params = [${JSON.stringify(workflowId)}, ${JSON.stringify(`n:${nodeId}`)}, JSON.stringify({ mode: 'entries', data })];
			${write}
		})().catch((error) => { console.error(error.message); process.exit(1); });`;
	const result = await runProcess(rt.node, ['-e', script, databaseOf(folder)], {
		cwd: folder.root,
		env: process.env,
		timeoutMs: 60_000,
	});
	if (result.code !== 0) throw new Error(`filling the node's history failed: ${result.stderr}`);
}
