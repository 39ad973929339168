/** Operations and resources (resourceOf) as the node's description and `execute` use them. */
import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
	INodePropertyOptions,
} from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

/** What runs one operation for every input item of a node run. */
export type Executor = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** An operation as its file (resources/<resource>/<operation>) describes it: entry, fields, run. */
export interface Operation {
	option: INodePropertyOptions & { value: string; action: string; description: string };
	fields: INodeProperties[];
	run: Executor;
}

/** Each operation's field as the node's description holds it (resourceOf's copy). */
const copies = new WeakMap<INodeProperties, INodeProperties>();

/** The field as the node's description shows it: errors name it so (labels.ts). */
export const shownAs = (field: INodeProperties): INodeProperties => copies.get(field) ?? field;

export interface Resource {
	option: { name: string; value: string };
	/** The Operation list shown for the resource, its entries in alphabetical order. */
	operations: INodeProperties;
	/** Every operation's fields, in the order listed; a field two operations share comes once. */
	fields: INodeProperties[];
	executors: Record<string, Executor>;
	/** Each operation's fields as it lists them (without resource and operation), by value. */
	fieldsOf: Record<string, readonly INodeProperties[]>;
}

/**
 * A resource from the operations its index.ts lists, the first the default, named here only: each
 * field is shown, in a copy (updateDisplayOptions), for this resource and the operations listing
 * it, its own conditions kept. A field naming a resource or an operation itself throws at once.
 */
export function resourceOf(name: string, resource: string, operations: Operation[]): Resource {
	const first = operations[0].option.value;
	const usedBy = new Map<INodeProperties, string[]>();
	for (const { option, fields } of operations)
		for (const field of fields) usedBy.set(field, [...(usedBy.get(field) ?? []), option.value]);
	return {
		option: { name, value: resource },
		operations: {
			displayName: 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource] } },
			default: first,
			options: operations.map(({ option }) => option).sort((a, b) => a.name.localeCompare(b.name)),
		},
		fields: [...usedBy].flatMap(([field, values]) => {
			const { show } = field.displayOptions ?? {};
			if (show?.resource || show?.operation)
				throw new Error(
					`The field "${field.name}" of ${resource} › ${values.join(', ')} names a resource or an operation itself: resourceOf shows each field for its own`,
				);
			const [copy] = updateDisplayOptions({ show: { resource: [resource], operation: values } }, [
				field,
			]);
			copies.set(field, copy);
			return copy;
		}),
		executors: Object.fromEntries(operations.map(({ option, run }) => [option.value, run])),
		fieldsOf: Object.fromEntries(operations.map(({ option, fields }) => [option.value, fields])),
	};
}
