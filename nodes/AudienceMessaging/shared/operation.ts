import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';

/** What runs one operation for every input item of a node run. */
export type Executor = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/**
 * One operation, as its own file (resources/<resource>/<operation>.ts, or a folder of that name)
 * describes it: its entry in the editor's Operation list, its fields, and its run (a request
 * descriptor's executor, or a runner call of its own).
 */
export interface Operation {
	option: INodePropertyOptions & { value: string; action: string; description: string };
	fields: INodeProperties[];
	run: Executor;
}

/** A resource as the node's description and `execute` use it. */
export interface Resource {
	/** The Operation list shown for the resource, its entries in alphabetical order. */
	operations: INodeProperties;
	/** Every operation's fields, in the order listed; a field two operations share comes once. */
	fields: INodeProperties[];
	/** The run of each operation, by its value. */
	executors: Record<string, Executor>;
	/** Each operation's fields as it lists them (without their resource and operation), by value. */
	fieldsOf: Record<string, readonly INodeProperties[]>;
}

/**
 * A resource from the operations its index.ts lists, the first of them the default. The resource
 * and each operation are named here only (issue 50): an operation's fields say nothing of them, and
 * each field is shown for this resource and the operations that list it (as n8n's own nodes do
 * with updateDisplayOptions), its own conditions kept. A field two operations share comes once.
 * The fields are the description's own objects (errors name a field as the description shows it),
 * so their conditions are set on them, once: a field that names a resource or an operation already
 * is a mistake, said at once.
 */
export function resourceOf(resource: string, operations: Operation[]): Resource {
	const first = operations[0].option.value;
	const usedBy = new Map<INodeProperties, string[]>();
	for (const { option, fields } of operations)
		for (const field of fields) usedBy.set(field, [...(usedBy.get(field) ?? []), option.value]);
	return {
		operations: {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			default: first,
			options: operations.map(({ option }) => option).sort((a, b) => a.name.localeCompare(b.name)),
		},
		fields: [...usedBy].map(([field, values]) => shownFor(field, resource, values)),
		executors: Object.fromEntries(operations.map(({ option, run }) => [option.value, run])),
		fieldsOf: Object.fromEntries(operations.map(({ option, fields }) => [option.value, fields])),
	};
}

/**
 * The field, now shown for `resource` and `operations`, and where its own conditions say.
 * Throws for a field that names a resource or an operation itself, or is listed by two resources.
 */
function shownFor(field: INodeProperties, resource: string, operations: string[]): INodeProperties {
	const { show = {}, ...others } = field.displayOptions ?? {};
	if (show.resource || show.operation)
		throw new Error(
			`The field "${field.name}" of ${resource} › ${operations.join(', ')} names a resource or an operation itself, or another resource lists it: resourceOf shows each field for its own`,
		);
	field.displayOptions = {
		...others,
		show: { resource: [resource], operation: operations, ...show },
	};
	return field;
}
