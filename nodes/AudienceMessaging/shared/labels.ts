import type { INodeProperties, INodePropertyCollection } from 'n8n-workflow';

import type { FieldLabels } from '../core';

/**
 * Error paths (as InputError and zod issues name them) that are not a field's own path, each with
 * the field path it stands for ("location.latitude" → "latitude"), or several field paths for a
 * rule across fields ("contacts.name.first_name" → first name or last name). An alias also
 * covers what lies below it: "uniqueValues.fields" → "fields" makes "uniqueValues.fields.place"
 * the label of "fields.place".
 */
export type FieldAliases = Record<string, string | string[]>;

const SEPARATOR = ' › ';

const isGroup = (option: unknown): option is INodePropertyCollection => typeof option === 'object' && option !== null && 'values' in option;
const isField = (option: unknown): option is INodeProperties => typeof option === 'object' && option !== null && 'type' in option && 'name' in option;

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
export function fieldLabels(fields: readonly INodeProperties[], aliases: FieldAliases = {}): FieldLabels {
	const labels: FieldLabels = {};
	const infoByPath = new Map<string, FieldInfo>();
	const byOwnName: FieldLabels = {};
	const byOwnNameInfo = new Map<string, FieldInfo>();
	// A path that names a fixed collection's group is only a fallback: the values a node reads
	// and the schemas' paths do not hold the group ("contacts.emails.email" is the e-mail, not
	// the Email group of Emails).
	const viaGroup = new Set<string>();
	let info: FieldInfo | undefined;
	const add = (path: string, label: string, throughGroup: boolean) => {
		if (path in labels && !(viaGroup.has(path) && !throughGroup)) return;
		labels[path] = label;
		if (info) infoByPath.set(path, info);
		if (throughGroup) viaGroup.add(path);
		else viaGroup.delete(path);
	};
	type Path = { path: string; throughGroup: boolean };
	const walk = (field: INodeProperties, paths: Path[], label: string, topLevel: boolean, parameter: string) => {
		info = { parameter, field };
		for (const { path, throughGroup } of paths) add(path, label, throughGroup);
		if (field.type !== 'collection' && field.type !== 'fixedCollection') return;
		const below = (name: string) => paths.map(({ path, throughGroup }) => ({ path: `${path}.${name}`, throughGroup }));
		for (const option of (field.options ?? []).filter(isField)) {
			const optionLabel = `${label}${SEPARATOR}${option.displayName}`;
			walk(option, below(option.name), optionLabel, false, parameter);
			if (topLevel && !(option.name in byOwnName)) {
				byOwnName[option.name] = optionLabel;
				byOwnNameInfo.set(option.name, { parameter, field: option });
			}
		}
		const groups = (field.options ?? []).filter(isGroup);
		for (const group of groups) {
			const only = groups.length === 1;
			const groupLabel = only ? label : `${label}${SEPARATOR}${group.displayName}`;
			const named = below(group.name).map(({ path }) => ({ path, throughGroup: true }));
			const groupPaths = only ? [...paths, ...named] : named;
			info = { parameter, field };
			for (const { path, throughGroup } of named) add(path, groupLabel, throughGroup);
			for (const value of group.values) {
				walk(value, groupPaths.map(({ path, throughGroup }) => ({ path: `${path}.${value.name}`, throughGroup })), `${groupLabel}${SEPARATOR}${value.displayName}`, false, parameter);
			}
		}
	};
	for (const field of fields) if (field.type !== 'notice') walk(field, [{ path: field.name, throughGroup: false }], field.displayName, true, field.name);
	for (const [name, label] of Object.entries(byOwnName)) {
		if (name in labels) continue;
		labels[name] = label;
		infoByPath.set(name, byOwnNameInfo.get(name)!);
	}

	// Shorter aliases first, so a longer one (more precise) overrides what a shorter one copied.
	const ordered = Object.entries(aliases).sort(([a], [b]) => a.length - b.length);
	const derived: FieldLabels = {};
	const derivedInfo = new Map<string, FieldInfo>();
	for (const [alias, target] of ordered) {
		if (Array.isArray(target)) {
			derived[alias] = eitherOf(target.map((path) => labelOf(labels, path, alias)));
			derivedInfo.set(alias, infoByPath.get(target[0])!);
			continue;
		}
		derived[alias] = labelOf(labels, target, alias);
		derivedInfo.set(alias, infoByPath.get(target)!);
		for (const [path, label] of Object.entries(labels)) {
			if (!path.startsWith(`${target}.`)) continue;
			derived[`${alias}${path.slice(target.length)}`] = label;
			derivedInfo.set(`${alias}${path.slice(target.length)}`, infoByPath.get(path)!);
		}
	}
	for (const [path, found] of derivedInfo) infoByPath.set(path, found);
	const result = Object.assign(labels, derived);
	fieldInfos.set(result, infoByPath);
	return result;
}

/** The field an error path names (looked up as fieldName looks up its label) and the top-level parameter holding it. */
export interface FieldInfo {
	parameter: string;
	field: INodeProperties;
}

const fieldInfos = new WeakMap<FieldLabels, Map<string, FieldInfo>>();

/** The field behind an error path, for labels made by fieldLabels: the full path, then without array indexes, then the longest known prefix. */
export function fieldAt(labels: FieldLabels, path: string[]): FieldInfo | undefined {
	const infos = fieldInfos.get(labels);
	if (!infos) return undefined;
	const generic = path.filter((part) => !/^\d+$/.test(part));
	for (let length = generic.length; length > 0; length--) {
		const found = infos.get(generic.slice(0, length).join('.')) ?? (length === path.length ? infos.get(path.join('.')) : undefined);
		if (found) return found;
	}
	return infos.get('');
}

function labelOf(labels: FieldLabels, path: string, alias: string): string {
	const label = labels[path];
	// A mistake of the operation's description (a renamed field name), not of the user's input.
	if (label === undefined) throw new Error(`The alias "${alias}" names the field "${path}", which the operation's fields do not have`);
	return label;
}

/** "Contacts › First Name" and "Contacts › Last Name" → "Contacts › First Name or Last Name". */
function eitherOf(labels: string[]): string {
	const parts = labels.map((label) => label.split(SEPARATOR));
	let common = 0;
	while (parts.every((part) => common < part.length - 1 && part[common] === parts[0][common])) common++;
	const prefix = parts[0].slice(0, common);
	const rest = parts.map((part) => part.slice(common).join(SEPARATOR));
	return [...prefix, rest.join(' or ')].join(SEPARATOR);
}
