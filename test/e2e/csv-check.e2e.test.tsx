/**
 * The CSV check in a real n8n: files read by Read/Write Files from Disk into n8n's file-system
 * binary store, the package as users install it, workflows run by the n8n CLI. A 190 MB member
 * export with one repeated e-mail 1.5 million rows down, and a file with a quote never closed
 * 30,000 lines down: the check's result comes before any request, and the chosen behaviour holds.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';

import { memberRow, writeMemberCsv } from '../helpers/member-csv';
import { executeBatch, nodeItems } from './n8n-harness';
import {
	audienceNode as audience,
	chain,
	manualTrigger as trigger,
	nodeAt as position,
	usePackageInN8n,
} from './package-setup';

jest.setTimeout(600_000);

const files = mkdtempSync(join(os.tmpdir(), 'am-e2e-csv-'));
const BIG = join(files, 'members-190mb.csv');
const BROKEN = join(files, 'members-broken-quote.csv');
const REPEATED_ROW = 1_500_000;

const readFile = (path: string) => ({
	id: 'read',
	name: 'Read File',
	type: 'n8n-nodes-base.readWriteFile',
	typeVersion: 1.1,
	position: position(1),
	parameters: { operation: 'read', fileSelector: path, options: {} },
});
const createFromCsv = (options: Record<string, unknown>) =>
	audience('Create From CSV', 2, {
		resource: 'list',
		operation: 'createFromCsv',
		name: 'Members',
		binaryPropertyName: 'data',
		options,
	});
const csvWorkflow = (id: string, path: string, options: Record<string, unknown>) => ({
	id,
	name: id,
	nodes: [trigger, readFile(path), createFromCsv(options)],
	connections: chain('Start', 'Read File', 'Create From CSV'),
});

const workflows = {
	bigRefused: csvWorkflow('amE2eCsvBig1', BIG, {}),
	bigLeftOut: csvWorkflow('amE2eCsvBig2', BIG, { csvProblems: 'leaveOut', preview: true }),
	broken: csvWorkflow('amE2eCsvBroken1', BROKEN, {}),
};

let big: { rows: number; bytes: number };
const ctx = usePackageInN8n('am-e2e-csv-', () => Object.values(workflows), {
	beforeImport: async (folder) => {
		big = writeMemberCsv(BIG, 190 * 1024 * 1024, (n, row) =>
			n === REPEATED_ROW ? row.replace(`member${n}@`, 'member17@') : row,
		);
		writeMemberCsv(BROKEN, 4 * 1024 * 1024, (n, row) =>
			n === 30_000 ? row.replace(/^(member\d+@example\.com),/, '$1,"') : row,
		);
		folder.env = {
			...folder.env,
			N8N_RESTRICT_FILE_ACCESS_TO: files,
			N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		};
		return async () => rmSync(files, { recursive: true, force: true });
	},
});

describe('CSV files checked before upload, in a real n8n', () => {
	let results: Awaited<ReturnType<typeof executeBatch>>;
	beforeAll(async () => {
		results = await executeBatch(
			ctx.folder,
			Object.values(workflows).map((workflow) => workflow.id),
		);
	});

	it('refuses the 190 MB file for its repeated e-mail 1.5 million rows down, naming the line, with no request', () => {
		expect(statSync(BIG).size).toBeGreaterThan(190 * 1024 * 1024);
		const result = results[workflows.bigRefused.id];
		expect(result.status).toBe('error');
		// Line 1 is the header; the row's line counts the quoted line breaks of the rows above it.
		const line = REPEATED_ROW + 2 + Math.floor((REPEATED_ROW - 5) / 997) + 1;
		// n8n's one-line summary of a failed run shows the error's description: its list of problems.
		expect(result.error).toContain(
			`line ${line}, column "email": the same email as line 20: values of email must not repeat in the file`,
		);
		expect(ctx.sandbox.requests.filter((request) => request.method !== 'GET')).toEqual([]);
	});

	it('previews the upload that leaves that row out: every other row, the size exact, nothing sent', () => {
		const result = results[workflows.bigLeftOut.id];
		expect(result.error).toBeUndefined();
		const [item] = nodeItems(result.runData!, 'Create From CSV');
		const leftOut = Buffer.byteLength(
			`${memberRow(REPEATED_ROW).replace(`member${REPEATED_ROW}@`, 'member17@')}\n`,
		);
		expect(item.json).toMatchObject({
			status: 'preview',
			request: {
				method: 'POST',
				url: `${ctx.sandbox.listsBaseUrl}/lists?name=Members`,
				body: {
					csvFile: {
						fileName: 'members-190mb.csv',
						bytes: big.bytes - leftOut,
						rows: big.rows - 1,
						rowsLeftOut: 1,
						problemCount: 1,
					},
				},
			},
		});
		expect(ctx.sandbox.requests).toEqual([]);
	});

	it('refuses the file with a quote never closed 30,000 lines down, naming the line, with no request', () => {
		const result = results[workflows.broken.id];
		expect(result.status).toBe('error');
		const line = 30_000 + 2 + Math.floor((30_000 - 5) / 997) + 1;
		expect(result.error).toMatch(
			new RegExp(`line ${line}: a quoted (value|field) (on|that starts on) line ${line}`),
		);
		expect(ctx.sandbox.requests).toEqual([]);
	});
});
