/** The labels errors name fields by, read from the fields as the editor shows them. */
import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import type { FieldLabels } from '../../../src/base';
import { shownAs } from './operation';

/**
 * Error paths that are not a field's own, to the field path they stand for ("location.latitude" →
 * "latitude"), or several for a rule across fields (first name or last name). An alias covers
 * what lies below it: "uniqueValues.fields" → "fields" labels "uniqueValues.fields.place".
 */
export type FieldAliases = Record<string, string | string[]>;

const SEPARATOR = ' › ';

const isGroup = (option: unknown): option is INodePropertyCollection =>
	typeof option === 'object' && option !== null && 'values' in option;
const isField = (option: unknown): option is INodeProperties =>
	typeof option === 'object' && option !== null && 'type' in option && 'name' in option;

/**
 * A field by its displayName; inside a (fixed) collection by its parents' and its own ("Options ›
 * Batch Size"). Paths join names by dots; a fixed collection's only group may be left out, as in
 * its label ("columns.type"). A top-level collection's option is also found by its own name
 * ("batchSize") unless a top-level field has it. Of two fields sharing a path, the first names it.
 */
export function fieldLabels(
	fields: readonly INodeProperties[],
	aliases: FieldAliases = {},
): FieldLabels {
	// A path through a fixed collection's group is only a fallback: the values read and the
	// schemas' paths hold no group ("contacts.emails.email" is the e-mail, not the Email group).
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

/** The field an error path names (found as fieldName finds its label), its top-level parameter. */
interface FieldInfo {
	parameter: string;
	field: INodeProperties;
}

const fieldInfos = new WeakMap<FieldLabels, Map<string, FieldInfo>>();

/** The field behind an error path: the full path, then without indexes, then the longest prefix. */
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
