import {
	MISS,
	compileParameter,
	parseJsonReference,
	plainValueAt,
	sameValue,
} from '../../../../src/base/expressions';

describe('parseJsonReference: which raw values are a plain $json reference, and their path', () => {
	it.each([
		['={{ $json.email }}', ['email']],
		['={{$json.email}}', ['email']],
		['={{   $json.email   }}', ['email']],
		['={{\n\t$json.email\r\n}}', ['email']],
		['={{ $json["first name"] }}', ['first name']],
		["={{ $json['a'] }}", ['a']],
		['={{ $json[ "a" ] }}', ['a']],
		['={{ $json.a.b }}', ['a', 'b']],
		['={{ $json.list[0] }}', ['list', 0]],
		['={{ $json.list[12].name }}', ['list', 12, 'name']],
		['={{ $json["a"]["b c"][3] }}', ['a', 'b c', 3]],
		['={{ $json["ключ"] }}', ['ключ']],
		['={{ $json["😀 emoji"] }}', ['😀 emoji']],
		['={{ $json[""] }}', ['']],
		['={{ $json["a.b"] }}', ['a.b']],
		[`={{ $json['it"s'] }}`, ['it"s']],
		[`={{ $json["it's"] }}`, ["it's"]],
		['={{ $json.$id }}', ['$id']],
		['={{ $json._x1 }}', ['_x1']],
		['={{ $json.class }}', ['class']],
		['={{ $json["0"] }}', ['0']],
		// A path like any other: on a text, n8n gives its method (and refuses it); here the text is not
		// an object, so n8n decides.
		['={{ $json.a.trim }}', ['a', 'trim']],
	])('%j is simple, path %j', (raw, path) => {
		expect(parseJsonReference(raw)).toEqual(path);
	});

	it.each([
		// Not an expression, or not exactly one {{ }} and nothing else.
		'{{ $json.email }}',
		'$json.email',
		' ={{ $json.email }}',
		'= {{ $json.email }}',
		'={{ $json.email }} ',
		'={{ $json.email }}\n',
		'={{ $json.email }} x',
		'=x {{ $json.email }}',
		'={{ $json.a }}{{ $json.b }}',
		'={{ $json.a }} {{ $json.b }}',
		'={{ $json.email',
		'=$json.email',
		'=',
		'={{}}',
		// Not a plain path of $json.
		'={{ $json }}',
		'={{ $json. }}',
		'={{ $json.a + $json.b }}',
		'={{ $json.a || "x" }}',
		'={{ $json.a.toUpperCase() }}',
		'={{ $json?.a }}',
		'={{ $json.a?.b }}',
		'={{ $json . a }}',
		'={{ $json[a] }}',
		'={{ $json[`a`] }}',
		'={{ $json[01] }}',
		'={{ $json[-1] }}',
		'={{ $json[1.5] }}',
		'={{ $json[1e3] }}',
		'={{ $json[12345678901] }}',
		'={{ $json.1a }}',
		'={{ $json.prénom }}',
		'={{ $json.$ }}',
		'={{ $jsonx.a }}',
		'={{ $data.a }}',
		'={{ $input.item.json.a }}',
		"={{ $('Node').item.json.a }}",
		'={{ $node["Node"].json.a }}',
		'={{ $("Node").first().json.a }}',
		'={{ $item(0).$node["Node"].json.a }}',
		'={{ $parameter.a }}',
		'={{ $json.a; }}',
		'={{ ($json.a) }}',
		'={{ $json.a\u00a0}}',
		// Quoted keys n8n might read differently, or refuses.
		'={{ $json["a\\"b"] }}',
		'={{ $json["a\\nb"] }}',
		"={{ $json['a'b'] }}",
		'={{ $json["a\'] }}',
		'={{ $json["a}}b"] }}',
		'={{ $json["a{b"] }}',
		'={{ $json["a(b"] }}',
		'={{ $json["a\tb"] }}',
		'={{ $json["a\nb"] }}',
		'={{ $json["a\u2028b"] }}',
		// Names n8n's sandbox refuses (it throws), and its ".constructor" check on the whole text.
		'={{ $json.__proto__ }}',
		'={{ $json["__proto__"] }}',
		'={{ $json.constructor }}',
		'={{ $json["constructor"] }}',
		'={{ $json.prototype }}',
		'={{ $json.a.caller }}',
		"={{ $json['binding'] }}",
		'={{ $json["a.constructor"] }}',
		'={{ $json["a. constructor"] }}',
	])('%j is not simple', (raw) => {
		expect(parseJsonReference(raw)).toBeUndefined();
	});

	it('only strings are parsed', () => {
		for (const raw of [
			undefined,
			null,
			42,
			true,
			{},
			['={{ $json.a }}'],
			{ value: '={{ $json.a }}' },
		])
			expect(parseJsonReference(raw)).toBeUndefined();
	});
});

describe('plainValueAt: the item value a path gives, when it is plain', () => {
	const json = {
		s: 'text',
		empty: '',
		expressionLike: '={{ $json.s }}',
		braces: 'a {{ b }} c',
		n: 42,
		negativeZero: -0,
		big: 1e21,
		nan: NaN,
		inf: Infinity,
		t: true,
		f: false,
		nil: null,
		undef: undefined,
		obj: { inner: 'deep', list: ['x', 7] },
		list: ['zero', 1, false, null, { k: 'v' }],
		sparse: Object.assign(new Array<unknown>(2), { 1: 'one' }),
		date: new Date(0),
		bare: Object.assign(Object.create(null) as Record<string, unknown>, { k: 'null prototype' }),
		text: 'abc',
	};

	it.each([
		[['s'], 'text'],
		[['empty'], ''],
		[['expressionLike'], '={{ $json.s }}'],
		[['braces'], 'a {{ b }} c'],
		[['n'], 42],
		[['negativeZero'], -0],
		[['big'], 1e21],
		[['t'], true],
		[['f'], false],
		[['obj', 'inner'], 'deep'],
		[['obj', 'list', 1], 7],
		[['list', 0], 'zero'],
		[['list', '0'], 'zero'],
		[['list', 2], false],
		[['list', 4, 'k'], 'v'],
		[['sparse', 1], 'one'],
		[['bare', 'k'], 'null prototype'],
	])('%j gives %j', (path, value) => {
		expect(Object.is(plainValueAt(json, path), value)).toBe(true);
	});

	it.each([
		[['missing']],
		[['missing', 'deeper']],
		[['nil']],
		[['nil', 'x']],
		[['undef']],
		[['nan']],
		[['inf']],
		[['obj']],
		[['list']],
		[['obj', 'missing']],
		[['list', 9]],
		[['list', 3]],
		[['list', 'length']],
		[['list', '01']],
		[['sparse', 0]],
		[['text', 0]],
		[['text', 'length']],
		[['s', 'length']],
		[['date', 'getTime']],
		[['toString']],
		[['hasOwnProperty']],
		[['obj', 'inner', 'length']],
	])('%j is not plain (n8n decides)', (path) => {
		expect(plainValueAt(json, path)).toBe(MISS);
	});

	it('the item JSON itself must be an object', () => {
		expect(plainValueAt(undefined, ['a'])).toBe(MISS);
		expect(plainValueAt('text', ['length'])).toBe(MISS);
		expect(plainValueAt(['a'], [0])).toBe('a');
	});
});

describe('compileParameter: a whole parameter value, as n8n walks it', () => {
	it('a single reference gives the item value', () => {
		const resolve = compileParameter('={{ $json.email }}')!;
		expect(resolve({ email: 'ada@example.com' })).toBe('ada@example.com');
		expect(resolve({ email: null })).toBe(MISS);
		expect(resolve({})).toBe(MISS);
	});

	it('collections and fixedCollections are rebuilt, literal leaves kept, in their order', () => {
		const raw = {
			field: [
				{
					label: 'Member',
					place: 'BACK',
					value: '={{ $json.name }}',
					order: 2,
					on: true,
					none: null,
				},
				{ label: 'Plan', value: '={{ $json["plan"] }}' },
			],
			note: 'literal',
		};
		const resolve = compileParameter(raw)!;
		const value = resolve({ name: 'Ada', plan: 'gold' }) as typeof raw;
		expect(value).toStrictEqual({
			field: [
				{ label: 'Member', place: 'BACK', value: 'Ada', order: 2, on: true, none: null },
				{ label: 'Plan', value: 'gold' },
			],
			note: 'literal',
		});
		expect(Object.keys(value.field[0])).toEqual(['label', 'place', 'value', 'order', 'on', 'none']);
		expect(value).not.toBe(raw);
		expect(raw.field[0].value).toBe('={{ $json.name }}');
		// One leaf that is not plain for an item: the whole parameter goes to n8n for that item.
		expect(resolve({ name: 'Ada' })).toBe(MISS);
		expect(resolve({ name: { first: 'Ada' }, plan: 'gold' })).toBe(MISS);
	});

	it('a resource locator keeps its mode and cached fields', () => {
		const resolve = compileParameter({
			__rl: true,
			mode: 'id',
			value: '={{ $json.serial }}',
			cachedResultName: 'Gold',
		})!;
		expect(resolve({ serial: 'tpl-gold' })).toStrictEqual({
			__rl: true,
			mode: 'id',
			value: 'tpl-gold',
			cachedResultName: 'Gold',
		});
	});

	it('any other expression anywhere in the value leaves the whole parameter to n8n', () => {
		expect(compileParameter('={{ $json.a.toUpperCase() }}')).toBeUndefined();
		expect(compileParameter({ a: '={{ $json.a }}', b: '=literal with no braces' })).toBeUndefined();
		expect(
			compileParameter({ list: [{ v: '={{ $json.a }}' }, { v: '={{ $json.b }} text' }] }),
		).toBeUndefined();
	});

	it('values without expressions are returned as they are', () => {
		for (const raw of ['text', '', 42, false, null, undefined])
			expect(compileParameter(raw)!({})).toBe(raw);
		expect(compileParameter([])!({})).toStrictEqual([]);
		expect(compileParameter({})!({})).toStrictEqual({});
	});
});

describe('sameValue', () => {
	it('compares as deep equality with key order, prototypes, NaN and -0', () => {
		expect(sameValue({ a: [1, 'x', { b: null }] }, { a: [1, 'x', { b: null }] })).toBe(true);
		expect(sameValue(NaN, NaN)).toBe(true);
		expect(sameValue(0, -0)).toBe(false);
		expect(sameValue({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
		expect(sameValue({ a: 1 }, { a: 1, b: undefined })).toBe(false);
		expect(sameValue([1], { 0: 1 })).toBe(false);
		expect(sameValue({ a: '1' }, { a: 1 })).toBe(false);
		expect(sameValue(Object.create(null), {})).toBe(false);
	});
});
