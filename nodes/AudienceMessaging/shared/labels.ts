import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import type { FieldLabels } from '../../../src/base';
import { shownAs } from './operation';

/**
 * Error paths (as InputError and zod issues name them) that are not a field's own path, each with
 * the field path it stands for ("location.latitude" → "latitude"), or several field paths for a
 * rule across fields ("contacts.name.first_name" → first name or last name). An alias also
 * covers what lies below it: "uniqueValues.fields" → "fields" makes "uniqueValues.fields.place"
 * the label of "fields.place".
 */
export type FieldAliases = Record<string, string | string[]>;

const SEPARATOR = ' › ';

const isGroup = (option: unknown): option is INodePropertyCollection =>
	typeof option === 'object' && option !== null && 'values' in option;
const isField = (option: unknown): option is INodeProperties =>
	typeof option === 'object' && option !== null && 'type' in option && 'name' in option;

/**
 * The labels errors name fields by, read from the fields as the editor shows them: a field by its
 * displayName, a field inside a collection or fixed collection by its parents' names and its own
 * ("Options › Batch Size", "Contacts › Emails › Email"). Paths are the fields' names joined by
 * dots; the group of a fixed collection with one group may be left out of the path
 * ("columns.type" as well as "columns.column.type"), as it is left out of the label. A field of a
 * top-level collection is also found by its own name ("batchSize"), unless a top-level field has
 * that name. Where two fields share a path (shown under different conditions), the first one
 * names it. Read at the start of each run, so a renamed field is named by its new name.
 */
export function fieldLabels(
	fields: readonly INodeProperties[],
	aliases: FieldAliases = {},
): FieldLabels {
	// Each path: its label, the field and top-level parameter behind it, and whether the path goes
	// through a fixed collection's group. Such a path is only a fallback: the values a node reads and
	// the schemas' paths hold no group ("contacts.emails.email" is the e-mail, not the Email group).
	const found = new Map<string, FieldInfo & { label: string; throughGroup: boolean }>();
	const byOwnName = new Map<string, FieldInfo & { label: string }>();
	const add = (path: Path, label: string, info: FieldInfo) => {
		const known = found.get(path.path);
		if (known && !(known.throughGroup && !path.throughGroup)) return;
		found.set(path.path, { ...info, label, throughGroup: path.throughGroup });
	};
	const walk = (field: INodeProperties, paths: Path[], label: string, parameter: string) => {
		for (const path of paths) add(path, label, { parameter, field });
		if (field.type !== 'collection' && field.type !== 'fixedCollection') return;
		const below = (from: Path[], name: string, throughGroup?: boolean) =>
			from.map((path) => ({
				path: `${path.path}.${name}`,
				throughGroup: throughGroup ?? path.throughGroup,
			}));
		for (const option of (field.options ?? []).filter(isField)) {
			const optionLabel = `${label}${SEPARATOR}${option.displayName}`;
			walk(option, below(paths, option.name), optionLabel, parameter);
			// An option of a top-level collection is also found by its own name ("batchSize").
			if (!paths[0].path.includes('.') && !byOwnName.has(option.name))
				byOwnName.set(option.name, { label: optionLabel, parameter, field: option });
		}
		const groups = (field.options ?? []).filter(isGroup);
		for (const group of groups) {
			const only = groups.length === 1;
			const groupLabel = only ? label : `${label}${SEPARATOR}${group.displayName}`;
			const named = below(paths, group.name, true);
			for (const path of named) add(path, groupLabel, { parameter, field });
			const valuePaths = only ? [...paths, ...named] : named;
			for (const value of group.values)
				walk(
					value,
					below(valuePaths, value.name),
					`${groupLabel}${SEPARATOR}${value.displayName}`,
					parameter,
				);
		}
	};
	for (const listed of fields) {
		const field = shownAs(listed);
		if (field.type !== 'notice')
			walk(field, [{ path: field.name, throughGroup: false }], field.displayName, field.name);
	}
	for (const [name, entry] of byOwnName)
		if (!found.has(name)) found.set(name, { ...entry, throughGroup: false });

	// Shorter aliases first, so a longer one (more precise) overrides what a shorter one copied.
	const aliased = new Map<string, FieldInfo & { label: string }>();
	for (const [alias, target] of Object.entries(aliases).sort(([a], [b]) => a.length - b.length)) {
		const targets = Array.isArray(target) ? target : [target];
		const entries = targets.map((path) => found.get(path) ?? missing(alias, path));
		aliased.set(alias, { ...entries[0], label: eitherOf(entries.map((entry) => entry.label)) });
		if (Array.isArray(target)) continue;
		for (const [path, entry] of found)
			if (path.startsWith(`${target}.`)) aliased.set(`${alias}${path.slice(target.length)}`, entry);
	}
	const infos = new Map<string, FieldInfo>();
	const labels: FieldLabels = {};
	for (const [path, { label, parameter, field }] of [...found, ...aliased]) {
		labels[path] = label;
		infos.set(path, { parameter, field });
	}
	fieldInfos.set(labels, infos);
	return labels;
}

type Path = { path: string; throughGroup: boolean };

/**
 * The field an error path names (looked up as fieldName looks up its label) and the top-level
 * parameter holding it.
 */
interface FieldInfo {
	parameter: string;
	field: INodeProperties;
}

const fieldInfos = new WeakMap<FieldLabels, Map<string, FieldInfo>>();

/**
 * The field behind an error path, for labels made by fieldLabels: the full path, then without array
 * indexes, then the longest known prefix.
 */
export function fieldAt(labels: FieldLabels, path: string[]): FieldInfo | undefined {
	const infos = fieldInfos.get(labels);
	if (!infos) return undefined;
	const generic = path.filter((part) => !/^\d+$/.test(part));
	for (let length = generic.length; length > 0; length--) {
		const found =
			infos.get(generic.slice(0, length).join('.')) ??
			(length === path.length ? infos.get(path.join('.')) : undefined);
		if (found) return found;
	}
	return infos.get('');
}

function missing(alias: string, path: string): never {
	// A mistake of the operation's description (a renamed field name), not of the user's input.
	throw new Error(
		`The alias "${alias}" names the field "${path}", which the operation's fields do not have`,
	);
}

/** "Contacts › First Name" and "Contacts › Last Name" → "Contacts › First Name or Last Name". */
function eitherOf(labels: string[]): string {
	const parts = labels.map((label) => label.split(SEPARATOR));
	let common = 0;
	while (parts.every((part) => common < part.length - 1 && part[common] === parts[0][common]))
		common++;
	const prefix = parts[0].slice(0, common);
	const rest = parts.map((part) => part.slice(common).join(SEPARATOR));
	return [...prefix, rest.join(' or ')].join(SEPARATOR);
}
