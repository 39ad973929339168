/**
 * The editor's texts by n8n's UX guidelines, for the node, the trigger and both credentials: every
 * field, option, collection entry and locator mode, walked recursively. A tooltip (description or
 * hint) says what the user needs to decide in a few words (the depth is in docs/operations.md); a
 * placeholder that shows an example starts with "e.g."; the trigger's statuses read as words, not
 * as the platform's raw values.
 */
import { AudienceMessagingApi } from '../../credentials/AudienceMessagingApi.credentials';
import { AudienceMessagingCallbackApi } from '../../credentials/AudienceMessagingCallbackApi.credentials';
import { AudienceMessaging } from '../../nodes/AudienceMessaging/AudienceMessaging.node';
import { AudienceMessagingTrigger } from '../../nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node';
import { CALLBACK_STATUSES } from '../../src/platform/callbacks';

/** n8n's guideline aims at 150 characters; past this hard cap a tooltip is internals. */
const MAX_TOOLTIP = 200;

type Entry = Record<string, unknown>;

/** One thing the editor shows: where it is (labels joined by " / ") and what it is. */
interface EditorText {
	where: string;
	/** The entry that holds the text: a field, a choice, a collection entry or a locator mode. */
	entry: Entry;
	/** The entry whose options, values or modes hold `entry` (none for a top-level field). */
	parent?: Entry;
	kind: 'description' | 'hint' | 'placeholder' | 'name';
	text: string;
}

const KINDS = ['description', 'hint', 'placeholder', 'name'] as const;
const label = (entry: Entry) => String(entry.displayName ?? entry.name ?? '?');
const list = (value: unknown) => (Array.isArray(value) ? (value as Entry[]) : []);
/** A choice of an options field: its name is a label the user picks. */
const isChoice = (entry: Entry) => !('type' in entry) && 'value' in entry;

/**
 * Every text of `entries` and of what they hold: a field's options (choices, a collection's
 * fields, a fixedCollection's entries), an entry's values, a locator's modes.
 */
function textsOf(entries: unknown, path: string, parent?: Entry): EditorText[] {
	return list(entries).flatMap((entry) => {
		const where = `${path} / ${label(entry)}`;
		const own = KINDS.filter((kind) => typeof entry[kind] === 'string')
			.filter((kind) => kind !== 'name' || isChoice(entry))
			.map((kind) => ({ where, entry, parent, kind, text: String(entry[kind]) }));
		return [
			...own,
			...(['options', 'values', 'modes'] as const).flatMap((key) =>
				textsOf(entry[key], where, entry),
			),
		];
	});
}

const node = new AudienceMessaging().description;
const trigger = new AudienceMessagingTrigger().description;
const texts = [
	...textsOf(node.properties, node.displayName),
	...textsOf(trigger.properties, trigger.displayName),
	...[new AudienceMessagingApi(), new AudienceMessagingCallbackApi()].flatMap((credential) =>
		textsOf(credential.properties, credential.displayName),
	),
];
/** The texts found, once each (an Options field shared by several operations is read once each). */
const show = (found: EditorText[]) => [
	...new Set(found.map(({ where, kind, text }) => `${where} [${kind}]: ${text}`)),
];

it('reads every field, option, collection entry and locator mode (the checks below read something)', () => {
	const has = (where: string, kind: EditorText['kind']) =>
		texts.some((text) => text.where.endsWith(where) && text.kind === kind);
	expect(texts.length).toBeGreaterThan(200);
	// A fixedCollection entry's field, a locator mode, a collection's option, a credential's field.
	expect(has('Buttons / Button / ID', 'description')).toBe(true);
	expect(has('Template / By Serial', 'placeholder')).toBe(true);
	expect(has('Options / Preview Without Sending', 'description')).toBe(true);
	expect(has('Audience Messaging Callbacks API / Secret', 'hint')).toBe(true);
	expect(has('Events / Any Status', 'description')).toBe(true);
	expect(has('Message Type / Location', 'name')).toBe(true);
});

it(`keeps every description and hint to ${MAX_TOOLTIP} characters at most`, () => {
	const long = texts.filter(
		({ kind, text }) => (kind === 'description' || kind === 'hint') && text.length > MAX_TOOLTIP,
	);
	expect(show(long)).toEqual([]);
});

it("names the trigger's statuses in words, and sends the platform's values unchanged", () => {
	const statuses = trigger.properties.find((property) => property.name === 'statuses');
	const options = (statuses?.options ?? []) as Array<{ name: string; value: string }>;
	expect(options.map((option) => option.value)).toEqual([...CALLBACK_STATUSES]);
	expect(
		options.map((option) => option.name).filter((name) => name === name.toUpperCase()),
	).toEqual([]);
	expect(options.find((option) => option.value === 'CODE_NOT_ALLOWED')?.name).toBe(
		'Code Not Allowed',
	);
	// Each says what it means; the ones that mean the message did not go out say so first.
	const described = options as Array<{ value: string; description?: string }>;
	expect(described.filter((option) => !option.description)).toEqual([]);
	expect(
		described
			.filter((option) => option.description?.startsWith('Not sent'))
			.map((option) => option.value),
	).toEqual(['CODE_NOT_ALLOWED', 'INCOMPLETE', 'BLACKLISTED', 'QUOTA_EXCEEDED']);
});

/**
 * What a placeholder is, by where it sits; every other placeholder shows an example value, so it
 * starts with "e.g. ".
 */
interface PlaceholderKind {
	what: string;
	applies: (text: EditorText) => boolean;
	rule: RegExp;
}
const EXAMPLE: PlaceholderKind = { what: 'an example', applies: () => true, rule: /^e\.g\. \S/ };
const placeholderRules: PlaceholderKind[] = [
	{
		what: "a collection's button label",
		applies: ({ entry }) => entry.type === 'collection' || entry.type === 'fixedCollection',
		rule: /^Add [A-Z]/,
	},
	{
		what: "a picker's prompt (a locator's From List mode)",
		applies: ({ entry, parent }) => entry.type === 'list' && parent?.type === 'resourceLocator',
		rule: /^Select an? [a-z]+\.\.\.$/,
	},
	{
		// n8n's lint (node-param-placeholder-missing-email) asks for this one.
		what: "n8n's e-mail placeholder",
		applies: ({ entry }) => entry.name === 'email',
		rule: /^name@email\.com$/,
	},
];

it('starts a placeholder that shows an example with "e.g."', () => {
	const placeholders = texts.filter(({ kind }) => kind === 'placeholder');
	const wrong = placeholders.flatMap((text) => {
		const { what, rule } = placeholderRules.find((kind) => kind.applies(text)) ?? EXAMPLE;
		return rule.test(text.text) ? [] : show([text]).map((found) => `${found} (${what})`);
	});
	expect(placeholders.length).toBeGreaterThan(30);
	expect([...new Set(wrong)]).toEqual([]);
});

it('opens a picker on From List where the spec lists what it picks, on By ID where it does not', () => {
	const pickers = node.properties.filter(
		(property) =>
			property.type === 'resourceLocator' &&
			list(property.modes).some((mode) => mode.type === 'list'),
	);
	// The spec lists wallet templates (GET /v2/wallet/templates) but has no call listing lists:
	// From List would open empty on an account that implements only the spec.
	const opensOn: Record<string, string> = { templateSerial: 'list', listId: 'id' };
	expect(new Set(pickers.map((picker) => picker.name))).toEqual(new Set(Object.keys(opensOn)));
	for (const picker of pickers) {
		const first = list(picker.modes)[0];
		const mode = (picker.default as { mode?: string }).mode;
		expect({ picker: picker.name, mode, first: first.name }).toEqual({
			picker: picker.name,
			mode: opensOn[picker.name],
			first: opensOn[picker.name],
		});
	}
});
