/**
 * The fast path for plain `$json` references (src/base/expressions.ts, read per item by
 * nodes/AudienceMessaging/runner/parameters.ts) against n8n's own evaluation, in n8n-core's real
 * execution context: every expression of a table, on every item of a table, read both ways in the
 * same run must give the same value (or the same error), and the parameters that are plain for an
 * item must have been read without n8n's getNodeParameter (so the test fails if the fast path is
 * gone or gives anything else).
 */
import { isDeepStrictEqual } from 'node:util';

import { ExecuteContext } from 'n8n-core';
import { ExpressionEvaluator, IsolatedVmBridge } from '@n8n/expression-runtime';
import { Expression, LoggerProxy } from 'n8n-workflow';
import { expressionSandboxHooks } from 'n8n-workflow/dist/cjs/expression-sandboxing';
import type {
	IExecuteFunctions,
	IGetNodeParameterOptions,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
} from 'n8n-workflow';

import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';
import { readParameter } from '../../nodes/AudienceMessaging/runner/parameters';
import { runNode } from '../helpers/n8n';
import { outputOf, run, textMessage, openConversation, useSandbox } from './context';

type Outcome = { value: unknown } | { error: string };
const capture = (read: () => unknown): Outcome => {
	try {
		return { value: read() };
	} catch (error) {
		return { error: (error as Error).message };
	}
};

interface Reading {
	parameter: string;
	itemIndex: number;
	fast: Outcome;
	n8n: Outcome;
	/** getNodeParameter calls the fast reader made for this item and parameter. */
	calls: number;
	json: unknown;
}

/**
 * The parameters of the fixture node, each holding the expression under test in a different place.
 */
const PARAMETERS: Array<{ name: string; options?: IGetNodeParameterOptions; plain: boolean }> = [
	{ name: 'value', plain: true },
	{ name: 'count', plain: true },
	{ name: 'collection', plain: true },
	{ name: 'fixed', plain: true },
	{ name: 'locator', options: { extractValue: true }, plain: true },
	// Another expression next to it that is not a plain reference: always n8n.
	{ name: 'mixed', plain: false },
];

const parametersWith = (expression: string) => ({
	value: expression,
	count: expression,
	collection: { a: expression, b: 'literal' },
	fixed: {
		entry: [
			{ label: 'First', value: expression },
			{ label: 'Second', value: expression },
		],
	},
	locator: { __rl: true, mode: 'id', value: expression },
	mixed: { a: expression, b: '={{ String($json.v) + "!" }}' },
});

const text = (name: string, displayName = name): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
});

let readings: Reading[] = [];
/**
 * Replaces input values with what only an in-process node could produce (a Date, a null-prototype
 * object, an own __proto__).
 */
let exotic: ((items: INodeExecutionData[]) => void) | undefined;

const fixture: INodeType = {
	description: {
		displayName: 'Expression Fixture',
		name: 'expressionFixture',
		group: ['transform'],
		version: 1,
		description:
			'Reads each parameter of each item through the fast reader and through getNodeParameter',
		defaults: { name: 'Expression Fixture' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			text('value', 'Value'),
			{ displayName: 'Count', name: 'count', type: 'number', default: 0 },
			{
				displayName: 'Collection',
				name: 'collection',
				type: 'collection',
				default: {},
				options: [text('a', 'A'), text('b', 'B')],
			},
			{
				displayName: 'Fixed',
				name: 'fixed',
				type: 'fixedCollection',
				typeOptions: { multipleValues: true },
				default: {},
				options: [
					{
						displayName: 'Entry',
						name: 'entry',
						values: [text('label', 'Label'), text('value', 'Value')],
					},
				],
			},
			{
				displayName: 'Locator',
				name: 'locator',
				type: 'resourceLocator',
				default: { mode: 'id', value: '' },
				modes: [
					{ displayName: 'By ID', name: 'id', type: 'string' },
					{
						displayName: 'From List',
						name: 'list',
						type: 'list',
						typeOptions: { searchListMethod: 'search' },
					},
				],
			},
			{
				displayName: 'Mixed',
				name: 'mixed',
				type: 'collection',
				default: {},
				options: [text('a', 'A'), text('b', 'B')],
			},
		],
	},
	async execute(this: IExecuteFunctions) {
		const items = this.getInputData();
		exotic?.(items);
		const evaluate = this.getNodeParameter.bind(this) as (
			name: string,
			itemIndex: number,
			fallback?: unknown,
			options?: IGetNodeParameterOptions,
		) => unknown;
		let calls = 0;
		(this as unknown as { getNodeParameter: typeof evaluate }).getNodeParameter = (...args) => {
			calls++;
			return evaluate(...args);
		};
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			for (const { name, options } of PARAMETERS) {
				const before = calls;
				const fast = capture(() => readParameter(this, name, itemIndex, undefined, options));
				const made = calls - before;
				readings.push({
					parameter: name,
					itemIndex,
					fast,
					n8n: capture(() => evaluate(name, itemIndex, undefined, options)),
					calls: made,
					json: items[itemIndex].json,
				});
			}
		}
		return [items];
	},
};

/**
 * Values an item field may hold (JSON, as a Code node outputs them); an item without the field too.
 */
const MISSING = Symbol('missing');
const VALUES: unknown[] = [
	'text',
	'',
	'=not an expression',
	'={{ $json.v }}',
	'a {{ b }} c',
	'unicode ✓ ключ 😀',
	0,
	-0,
	42,
	1.5,
	-7,
	1e21,
	NaN,
	Infinity,
	true,
	false,
	null,
	{ x: 1 },
	[1, 2],
	MISSING,
];
const NESTED: unknown[] = [
	{ b: 'nested' },
	{ b: 7 },
	{},
	null,
	'str',
	{ b: { c: 1 } },
	{ b: null },
	['x'],
	{ b: false },
	{ b: { c: 'deep' } },
];
const LISTS: unknown[] = [
	['zero', 1],
	[],
	'ab',
	{ 0: 'obj' },
	[null, 'one'],
	[['in']],
	['only'],
	[true, false],
];

const ITEMS: INodeExecutionData[] = VALUES.map((v, i) => {
	const json: Record<string, unknown> = {
		a: NESTED[i % NESTED.length],
		list: LISTS[i % LISTS.length],
		...(i % 2 ? {} : { 'first name': `Name ${i}` }),
		'it"s': i,
		"it's": i % 3 === 0,
		ключ: 'значение',
		'😀': 'smile',
		'': 'empty key',
		'a.b': 'dotted',
		$id: `id-${i}`,
		class: i % 4 ? 'c' : null,
		constructor: 'own constructor',
		prototype: 'own prototype',
		binding: 'own binding',
	};
	if (v !== MISSING) json.v = v;
	return { json } as INodeExecutionData;
});

/**
 * Some items get values no JSON copy keeps: a Date, a null-prototype object, an own "__proto__"
 * field.
 */
const addExotic = (items: INodeExecutionData[]) => {
	items.forEach((item, i) => {
		const json = item.json as Record<string, unknown>;
		if (i % 3 === 0) json.d = new Date(Date.UTC(2026, 0, 1 + i));
		if (i % 3 === 1)
			json.bare = Object.assign(Object.create(null) as Record<string, unknown>, { k: `bare ${i}` });
		if (i % 3 === 2)
			Object.defineProperty(json, '__proto__', {
				value: 'own proto',
				enumerable: true,
				configurable: true,
				writable: true,
			});
	});
};

/** Raw parameter values, with the path of those that are plain references (null: always n8n). */
const EXPRESSIONS: Array<[string, Array<string | number> | null]> = [
	['={{ $json.v }}', ['v']],
	['={{$json.v}}', ['v']],
	['={{   $json["v"]   }}', ['v']],
	["={{ $json['v'] }}", ['v']],
	['={{\n  $json.v\n}}', ['v']],
	['={{ $json.a.b }}', ['a', 'b']],
	['={{ $json.a["b"] }}', ['a', 'b']],
	['={{ $json.a.b.c }}', ['a', 'b', 'c']],
	['={{ $json.list[0] }}', ['list', 0]],
	['={{ $json.list[1] }}', ['list', 1]],
	['={{ $json.list["0"] }}', ['list', '0']],
	['={{ $json.list[0][0] }}', ['list', 0, 0]],
	['={{ $json["first name"] }}', ['first name']],
	[`={{ $json['it"s'] }}`, ['it"s']],
	[`={{ $json["it's"] }}`, ["it's"]],
	['={{ $json["ключ"] }}', ['ключ']],
	['={{ $json["😀"] }}', ['😀']],
	['={{ $json[""] }}', ['']],
	['={{ $json["a.b"] }}', ['a.b']],
	['={{ $json.$id }}', ['$id']],
	['={{ $json.class }}', ['class']],
	['={{ $json.missing }}', ['missing']],
	['={{ $json.missing.deeper }}', ['missing', 'deeper']],
	['={{ $json.v.length }}', ['v', 'length']],
	['={{ $json.list.length }}', ['list', 'length']],
	['={{ $json.a.trim }}', ['a', 'trim']],
	['={{ $json.toString }}', ['toString']],
	['={{ $json.d }}', ['d']],
	['={{ $json.bare.k }}', ['bare', 'k']],
	// Not plain references: n8n evaluates them for every item.
	['={{ $json.v }} x', null],
	['=x{{ $json.v }}', null],
	['={{ $json.v }}{{ $json.v }}', null],
	['={{ $json.v + "" }}', null],
	['={{ $json.v.toString() }}', null],
	['={{ $json?.v }}', null],
	['={{ $json }}', null],
	['={{ $input.item.json.v }}', null],
	['=plain text', null],
	['={{ $json.__proto__ }}', null],
	['={{ $json["__proto__"] }}', null],
	['={{ $json.constructor }}', null],
	['={{ $json["constructor"] }}', null],
	['={{ $json.prototype }}', null],
	['={{ $json.binding }}', null],
	['={{ $json["a.constructor"] }}', null],
];

/**
 * The test's own statement of "plain": own fields of plain objects and array elements down the
 * path, ending in text, a finite number or a boolean.
 */
function plainAt(json: unknown, path: Array<string | number>): boolean {
	let value = json;
	for (const key of path) {
		if (Array.isArray(value)) {
			if (!/^\d+$/.test(String(key)) || !(Number(key) in value)) return false;
			value = value[Number(key)];
			continue;
		}
		if (
			value === null ||
			typeof value !== 'object' ||
			![Object.prototype, null].includes(Object.getPrototypeOf(value))
		)
			return false;
		if (!Object.prototype.hasOwnProperty.call(value, key)) return false;
		value = (value as Record<string, unknown>)[key];
	}
	return (
		typeof value === 'string' ||
		typeof value === 'boolean' ||
		(typeof value === 'number' && Number.isFinite(value))
	);
}

/**
 * n8n's isolate engine as `n8n start` sets it up (Expression.initExpressionEngine with n8n 2.40's
 * defaults: pool of 1, 5 s, 128 MB), built here because initExpressionEngine loads the runtime
 * with a dynamic import, which jest refuses. @n8n/expression-runtime is the copy n8n-workflow uses.
 */
async function startVmEngine(): Promise<void> {
	const evaluator = new ExpressionEvaluator({
		createBridge: () =>
			new IsolatedVmBridge({ timeout: 5000, memoryLimit: 128, logger: LoggerProxy }),
		maxCodeCacheSize: 1024,
		poolSize: 1,
		hooks: expressionSandboxHooks,
		logger: LoggerProxy,
	});
	await evaluator.initialize();
	(Expression as unknown as { vmEvaluator?: ExpressionEvaluator }).vmEvaluator = evaluator;
	Expression.setExpressionEngine('vm');
}

// n8n 2.x evaluates expressions in an isolate (isolated-vm) by default, 1.x in the process
// ("legacy"): both are checked.
describe.each(['legacy', 'vm'] as const)(
	'plain $json references, %s expression engine: the fast path gives what n8n gives',
	(engine) => {
		beforeAll(async () => {
			exotic = addExotic;
			if (engine === 'vm') await startVmEngine();
			expect(Expression.getActiveImplementation()).toBe(engine);
		});
		afterAll(async () => {
			exotic = undefined;
			await Expression.disposeExpressionEngine();
			Expression.setExpressionEngine('legacy');
		});

		it.each(EXPRESSIONS)('%j on every item', async (expression, path) => {
			readings = [];
			const result = await runNode({
				nodeType: fixture,
				parameters: parametersWith(expression),
				items: ITEMS,
			});
			expect(result.error).toBeUndefined();
			expect(readings).toHaveLength(ITEMS.length * PARAMETERS.length);

			const differences = readings
				.filter((r) => !isDeepStrictEqual(r.fast, r.n8n))
				.map((r) => ({ parameter: r.parameter, itemIndex: r.itemIndex, fast: r.fast, n8n: r.n8n }));
			expect(differences).toEqual([]);

			// Items read from their data: no getNodeParameter, except the first one of each parameter
			// (checked against n8n).
			for (const { name, plain } of PARAMETERS) {
				let first = true;
				const expected = readings
					.filter((r) => r.parameter === name)
					.map((r) => {
						if (!plain || !path || !plainAt(r.json, path)) return 1;
						const calls = first ? 1 : 0;
						first = false;
						return calls;
					});
				expect({
					parameter: name,
					calls: readings.filter((r) => r.parameter === name).map((r) => r.calls),
				}).toEqual({ parameter: name, calls: expected });
			}
		});

		it('the table covers every kind of value, both paths, and errors n8n throws', async () => {
			readings = [];
			await runNode({
				nodeType: fixture,
				parameters: parametersWith('={{ $json.v }}'),
				items: ITEMS,
			});
			const values = readings.filter((r) => r.parameter === 'value');
			const fastItems = values.filter((r) => r.calls === 0).length;
			expect(fastItems).toBeGreaterThanOrEqual(12);
			expect(values.filter((r) => r.calls === 1).length).toBeGreaterThanOrEqual(7);
			readings = [];
			await runNode({
				nodeType: fixture,
				parameters: parametersWith('={{ $json.__proto__ }}'),
				items: ITEMS,
			});
			expect(readings.every((r) => 'error' in r.n8n && isDeepStrictEqual(r.fast, r.n8n))).toBe(
				true,
			);
			readings = [];
			await runNode({
				nodeType: fixture,
				parameters: parametersWith('={{ $json.d }}'),
				items: ITEMS,
			});
			// A Date (what an in-process node may leave in an item) is not plain: n8n reads it, whatever
			// its engine makes of it.
			const dated = readings.filter(
				(r) => r.parameter === 'value' && (r.json as { d?: unknown }).d instanceof Date,
			);
			expect(dated.length).toBeGreaterThan(0);
			expect(
				dated.every((r) => r.calls === 1 && 'value' in r.n8n && r.n8n.value !== undefined),
			).toBe(true);
		});
	},
);

describe('plain $json references in the node', () => {
	const ctx = useSandbox();
	const members = Array.from({ length: 40 }, (_, i) => ({
		json: { email: `m${i}@example.com`, name: `Member ${i}`, plan: i % 3 ? 'free' : 'pro' },
	}));
	const template = { __rl: true, mode: 'id', value: 'tpl-gold-member' };
	const readsOf = async (
		parameters: INodeParameters,
		items: INodeExecutionData[],
		continueOnFail = false,
	) => {
		const spy = jest.spyOn(
			ExecuteContext.prototype as unknown as { _getNodeParameter: (name: string) => unknown },
			'_getNodeParameter',
		);
		try {
			const output = outputOf(await run(ctx.credentials, parameters, items, continueOnFail));
			const reads = new Map<string, number>();
			for (const [name] of spy.mock.calls) reads.set(name, (reads.get(name) ?? 0) + 1);
			return { output, reads };
		} finally {
			spy.mockRestore();
		}
	};
	const sentPasses = () =>
		ctx.sandbox.requests.flatMap((request) => (request.body as { items: unknown[] }).items);
	const expectedPass = (member: (typeof members)[number], value: string) => ({
		recipientId: member.json.email,
		uniqueValues: {
			fields: [
				{ place: 'BACK', label: 'Member', fixed: false, value: member.json.name },
				{ place: 'BACK', label: 'Plan', fixed: false, value },
			],
		},
	});

	it('Wallet Pass › Create, Define Below: Recipient ID and Fields are read from the items, not evaluated per item', async () => {
		const { output, reads } = await readsOf(
			{
				resource: 'walletPass',
				operation: 'create',
				templateSerial: template,
				recipientId: '={{ $json.email }}',
				fields: {
					field: [
						{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' },
						{ place: 'BACK', label: 'Plan', value: "={{ $json['plan'] }}" },
					],
				},
			},
			members,
		);
		expect(output.map((item) => item.json.recipientId)).toEqual(
			members.map((member) => member.json.email),
		);
		expect(sentPasses()).toEqual(members.map((member) => expectedPass(member, member.json.plan)));
		// One read each, of the first item (checked against n8n); not one per item.
		expect(reads.get('recipientId')).toBe(1);
		expect(reads.get('fields')).toBe(1);
	});

	it('a field with another expression: Fields goes through n8n for every item, Recipient ID still from the items', async () => {
		const { reads } = await readsOf(
			{
				resource: 'walletPass',
				operation: 'create',
				templateSerial: template,
				recipientId: '={{ $json.email }}',
				fields: {
					field: [
						{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' },
						{ place: 'BACK', label: 'Plan', value: '={{ $json.plan.toUpperCase() }}' },
					],
				},
			},
			members,
		);
		expect(sentPasses()).toEqual(
			members.map((member) => expectedPass(member, member.json.plan.toUpperCase())),
		);
		expect(reads.get('recipientId')).toBe(1);
		expect(reads.get('fields')).toBe(members.length);
	});

	it("items whose field is not plain go through n8n, with n8n's result", async () => {
		const items = members.slice(0, 6).map((member, i) => ({
			json: { ...member.json, name: i === 2 ? 42 : i === 4 ? null : member.json.name },
		}));
		const { output, reads } = await readsOf(
			{
				resource: 'walletPass',
				operation: 'create',
				templateSerial: template,
				recipientId: '={{ $json.email }}',
				fields: { field: [{ place: 'BACK', label: 'Member', value: '={{ $json.name }}' }] },
			},
			items,
			true,
		);
		// 42 is a plain value (read from the item), null is not: n8n reads item 4 (and item 0, the
		// check).
		expect(reads.get('fields')).toBe(2);
		expect(
			sentPasses().map(
				(pass) =>
					(pass as { uniqueValues: { fields: Array<{ value: string }> } }).uniqueValues.fields[0]
						.value,
			),
		).toEqual(['Member 0', 'Member 1', '42', 'Member 3', 'Member 5']);
		expect(output[4].json.error).toBe(
			'Invalid "Fields › Value #1" in item 4: every field needs a value',
		);
	});

	it('Message › Send: To and the Options holding External ID are read from the items', async () => {
		openConversation(ctx.sandbox);
		const items = [0, 1, 2].map((i) => ({ json: { to: '+33 6 12 34 56 78', ref: `ref${i}` } }));
		const { output, reads } = await readsOf(
			textMessage({ to: '={{ $json.to }}', options: { externalId: '={{ $json.ref }}' } }),
			items,
		);
		expect(output.map((item) => item.json.externalId)).toEqual(['ref0', 'ref1', 'ref2']);
		expect(reads.get('to')).toBe(1);
		// Options: read once at item 0 for the run (runOptions: wait budget, preview, pace), then per
		// item from the items, item 0 checked against n8n.
		expect(reads.get('options')).toBe(2);
	});
});

describe("the node's parameters need none of n8n's post-processing the fast path leaves out", () => {
	const properties = (list: INodeProperties[]): INodeProperties[] =>
		list.flatMap((property) => [
			property,
			...properties(
				((property.options ?? []) as unknown[]).flatMap((option) => {
					const entry = option as { values?: INodeProperties[]; type?: string };
					return entry.values ?? (entry.type ? [entry as INodeProperties] : []);
				}),
			),
		]);
	const all = properties(new AudienceMessaging().description.properties);

	it('no validateType (n8n would convert or refuse a value), no resource mapper or filter', () => {
		expect(all.length).toBeGreaterThan(50);
		expect(
			all
				.filter((property) => property.validateType !== undefined)
				.map((property) => property.name),
		).toEqual([]);
		expect(
			all
				.filter((property) =>
					['resourceMapper', 'filter', 'assignmentCollection'].includes(property.type),
				)
				.map((property) => property.name),
		).toEqual([]);
	});

	it('no extractValue regex on a property or a resource locator mode (extractValue gives the value as it is)', () => {
		expect(
			all
				.filter(
					(property) =>
						'extractValue' in property ||
						(property.modes ?? []).some((mode) => 'extractValue' in mode),
				)
				.map((property) => property.name),
		).toEqual([]);
		expect(all.filter((property) => property.type === 'resourceLocator').length).toBeGreaterThan(0);
	});
});
