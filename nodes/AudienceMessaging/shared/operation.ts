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
}

/** A resource from the operations its index.ts lists, the first of them the default. */
export function resourceOf(resource: string, operations: Operation[]): Resource {
	const first = operations[0].option.value;
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
		fields: [...new Set(operations.flatMap(({ fields }) => fields))],
		executors: Object.fromEntries(operations.map(({ option, run }) => [option.value, run])),
	};
}
