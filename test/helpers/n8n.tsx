/**
 * In-process n8n node runner for tests.
 *
 * Executes a node through n8n-core's real engine: `WorkflowExecute` runs a two-node workflow
 * (harness input node -> node under test), declarative nodes go through the real `RoutingNode`,
 * `this.helpers.httpRequestWithAuthentication` / `requestWithAuthentication` are n8n's own
 * helpers doing real HTTP, and credentials are authenticated by a test `ICredentialsHelper` that
 * mirrors packages/cli/src/credentials-helper.ts (defaults, expression resolution, generic
 * `authenticate`, `preAuthentication`). Nothing is mocked at the HTTP level: point the credential's
 * base URL at a local server and assert what it received.
 *
 * Modelled on n8n's own packages/core/nodes-testing (NodeTestHarness, CredentialsHelper) and
 * packages/cli (getWorkflowExecuteAdditionalData, DynamicNodeParametersService, CredentialsTester).
 *
 * `@n8n/di`, `@n8n/backend-common` and `@n8n/config` are transitive dependencies of n8n-core;
 * they must resolve to the same copies n8n-core uses, otherwise the DI overrides below are ignored.
 */
import { Logger } from '@n8n/backend-common';
import { SsrfProtectionConfig, type InstanceSettingsConfig } from '@n8n/config';
import { Container } from '@n8n/di';
import {
	BinaryDataConfig,
	BinaryDataService,
	CredentialTestContext,
	Credentials,
	DataDeduplicationService,
	DirectoryLoader,
	ErrorReporter,
	ExecuteContext,
	ExecutionLifecycleHooks,
	ExternalSecretsProxy,
	InstanceSettings,
	LoadOptionsContext,
	RoutingNode,
	WorkflowExecute,
	getAdditionalKeys,
	prepareBinaryData,
} from 'n8n-core';
import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialsExpressionResolveValues,
	ICredentialTestFunction,
	ICredentialTestFunctions,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IBinaryData,
	IHttpRequestHelper,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	INode,
	INodeCredentialsDetails,
	INodeCredentialTestResult,
	INodeExecutionData,
	INodeListSearchResult,
	INodeParameters,
	INodeProperties,
	INodePropertyOptions,
	INodeType,
	INodeTypes,
	IRequestOptionsSimplified,
	IRun,
	IVersionedNodeType,
	IWorkflowBase,
	IWorkflowExecuteAdditionalData,
	IWorkflowSettings,
	JsonObject,
	Logger as WorkflowLogger,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import {
	ICredentialsHelper,
	LoggerProxy,
	NodeApiError,
	NodeHelpers,
	UnexpectedError,
	Workflow,
	createRunExecutionData,
	deepCopy,
	isExpression,
	setSafeRegexEngine,
} from 'n8n-workflow';
import type { RegexEngine } from 'n8n-workflow';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Script, createContext } from 'node:vm';

import { processedData } from './processed-data';

/**
 * n8n-workflow runs the regular expressions of its parameter checks (a Resource Locator's, before
 * an execution starts) in a vm with a 250 ms limit of wall time: on a machine loaded to the point
 * where this process waits that long for a core (a clean clone's run beside the mutation run),
 * n8n failed a node test with "Regular expression execution timed out". The same engine, 10 s:
 * a runaway expression still ends, and no test depends on the machine being idle.
 */
function patientRegexEngine(timeout: number): RegexEngine {
	const context = createContext({
		pattern: '',
		flags: '',
		input: '',
		replacement: '',
		result: null,
	});
	const scripts = new Map<string, Script>();
	const run = <T,>(code: string, values: Record<string, unknown>): T => {
		Object.assign(context, values, { result: null });
		let script = scripts.get(code);
		if (!script) scripts.set(code, (script = new Script(code)));
		script.runInContext(context, { timeout });
		return context.result as T;
	};
	return {
		exec: (pattern, input, flags = '') =>
			run('result = new RegExp(pattern, flags).exec(input)', { pattern, input, flags }),
		test: (pattern, input, flags = '') =>
			run('result = new RegExp(pattern, flags).test(input)', { pattern, input, flags }),
		replace: (pattern, input, flags = '', replacement) =>
			run('result = input.replace(new RegExp(pattern, flags), replacement)', {
				pattern,
				input,
				flags,
				replacement,
			}),
		matchAll: (pattern, input, flags = '') =>
			run('result = Array.from(input.matchAll(new RegExp(pattern, flags)))', {
				pattern,
				input,
				flags: flags.includes('g') ? flags : `${flags}g`,
			}),
		split: (pattern, input, flags = '') =>
			run('result = input.split(new RegExp(pattern, flags))', { pattern, input, flags }),
	};
}
setSafeRegexEngine(patientRegexEngine(10_000));

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

export interface HarnessCredentials {
	/** Credential type name, must equal `credentialType.name`. */
	type: string;
	/** Decrypted credential data as stored in n8n (defaults of missing properties are applied). */
	data: ICredentialDataDecryptedObject;
	/** The credential class instance (provides `properties`, `authenticate`, `test`, ...). */
	credentialType: ICredentialType;
}

export interface RunNodeOptions {
	/** The node class instance under test. */
	nodeType: INodeType | IVersionedNodeType;
	/** Node parameters as saved in a workflow (defaults are applied by `Workflow`, like in n8n). */
	parameters: INodeParameters;
	credentials?: HarnessCredentials;
	/**
	 * More credentials of other types the node may use (plain data: defaults applied, no expressions,
	 * no authenticate).
	 */
	extraCredentials?: HarnessCredentials[];
	/**
	 * Input items fed to the node (json + optional binary from `binaryItem`). Default `[{ json: {}
	 * }]`.
	 */
	items?: INodeExecutionData[];
	/** Node setting "On Error: Continue" (`onError: 'continueRegularOutput'`). */
	continueOnFail?: boolean;
	/** Defaults to the node's latest (default) version. */
	typeVersion?: number;
	/**
	 * The workflow's ID (default `harness-workflow`); empty for a workflow never saved. n8n keeps what
	 * a node processed per workflow and node (see processed-data.tsx).
	 */
	workflowId?: string;
	/** More workflow settings, e.g. `{ binaryMode: 'combined' }` (n8n 2.x: files in the JSON). */
	workflowSettings?: IWorkflowSettings;
}

export interface RunNodeResult {
	/** The node's output per output index (json, binary and pairedItem as produced by n8n). */
	output: INodeExecutionData[][] | null;
	/**
	 * The error the node failed with (the original NodeApiError / NodeOperationError instance).
	 * Also set to a WorkflowHasIssuesError when n8n refuses to start, e.g. a required parameter is
	 * missing.
	 */
	error?: Error;
	/** How often n8n loaded (and decrypted) the node's main credential during the run. */
	credentialReads?: number;
	/** The execution hints the node added (shown by n8n above its output). */
	hints?: Array<{ message: string; type?: string; location?: string }>;
	/** When the node put the execution to wait (putExecutionToWait): until when. */
	waitTill?: Date;
	/** The node's context as n8n keeps it with the execution (`getContext('node')`). */
	nodeContext?: Record<string, unknown>;
}

export type BinaryDataMode = 'filesystem' | 'default';

/** Name given to the node under test in the harness workflow (visible in error messages). */
export const NODE_NAME = 'Node Under Test';
const INPUT_NODE_NAME = 'Harness Input';
const INPUT_NODE_TYPE = 'n8n-harness.input';
export const WORKFLOW_ID = 'harness-workflow';
/** ID of the node under test in the harness workflow (n8n keeps what a node processed by it). */
export const NODE_ID = 'harness-node-under-test';
/** Execution id used for binary data created before a run (see `binaryItem`). */
const INPUT_EXECUTION_ID = 'harness-input';

/**
 * Run `nodeType` once with `parameters` on `items` through WorkflowExecute and return its output
 * (or its error). Requests go over the network to wherever the credentials / parameters point.
 */
export async function runNode(options: RunNodeOptions): Promise<RunNodeResult> {
	await ensureEnvironment();

	const items = options.items ?? [{ json: {} }];
	const nodeTypes = new HarnessNodeTypes();
	const typeName = nodeTypes.register(options.nodeType);
	nodeTypes.registerAs(INPUT_NODE_TYPE, createInputNodeType(items));
	const typeVersion = options.typeVersion ?? defaultVersionOf(options.nodeType);

	const inputNode: INode = {
		id: 'harness-input-node',
		name: INPUT_NODE_NAME,
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const node: INode = {
		id: NODE_ID,
		name: NODE_NAME,
		type: typeName,
		typeVersion,
		position: [220, 0],
		parameters: deepCopy(options.parameters),
		...(options.credentials && {
			credentials: Object.assign(
				{},
				nodeCredentialsFor(options.credentials),
				...(options.extraCredentials ?? []).map(nodeCredentialsFor),
			),
		}),
		...(options.continueOnFail && { onError: 'continueRegularOutput' as const }),
	};
	const connections = {
		[INPUT_NODE_NAME]: { main: [[{ node: NODE_NAME, type: 'main' as const, index: 0 }]] },
	};
	const workflow = new Workflow({
		id: options.workflowId ?? WORKFLOW_ID,
		name: 'Harness workflow',
		nodes: [inputNode, node],
		connections,
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1', ...options.workflowSettings },
	});

	const mode: WorkflowExecuteMode = 'manual';
	const executionId = nextExecutionId();
	const credentialsHelper = new HarnessCredentialsHelper(
		options.credentials,
		options.extraCredentials,
	);
	const additionalData = createAdditionalData(
		credentialsHelper,
		executionId,
		new ExecutionLifecycleHooks(mode, executionId, workflowBase(workflow, [inputNode, node])),
	);
	// Start the run at the input node, exactly like a manual execution starts at its trigger.
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: inputNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});

	const workflowExecute = new CapturingWorkflowExecute(additionalData, mode, runExecutionData);
	let run: IRun;
	try {
		run = await workflowExecute.processRunExecutionData(workflow);
	} catch (error) {
		// Thrown before any node ran, e.g. WorkflowHasIssuesError for missing required parameters.
		return { output: null, error: toError(error) };
	}

	const { runData, error: workflowError } = run.data.resultData;
	const task = runData[NODE_NAME]?.[0];
	if (!task) {
		const inputError = runData[INPUT_NODE_NAME]?.[0]?.error;
		return {
			output: null,
			error: inputError ?? workflowError ?? new UnexpectedError(`"${NODE_NAME}" did not run`),
		};
	}
	// Outputs that produced nothing are `null` in run data; normalise to [] per output.
	const output = task.data?.main.map((items) => items ?? []) ?? null;
	// task.error is a plain-object copy (what n8n persists); hand out the thrown instance instead.
	const error = task.error && (workflowExecute.nodeError ?? task.error);
	return {
		output,
		...(error && { error }),
		credentialReads: credentialsHelper.reads,
		hints: task.hints ?? [],
		...(run.data.waitTill ? { waitTill: run.data.waitTill } : {}),
		nodeContext: run.data.executionData?.contextData?.[`node:${NODE_NAME}`] ?? {},
	};
}

/**
 * WorkflowExecute stores node errors as `{ ...error, message, stack }` (plain objects). Capture the
 * thrown instance of the node under test so tests can use `instanceof` and read its properties.
 */
class CapturingWorkflowExecute extends WorkflowExecute {
	nodeError?: Error;

	override async runNode(...args: Parameters<WorkflowExecute['runNode']>) {
		try {
			return await super.runNode(...args);
		} catch (error) {
			const { node } = args[1];
			if (node.name === NODE_NAME) {
				// Same normalisation WorkflowExecute applies (normalizeUnhandledAxiosError).
				const isAxiosError = (error as { isAxiosError?: boolean })?.isAxiosError === true;
				this.nodeError = isAxiosError
					? new NodeApiError(node, error as JsonObject)
					: toError(error);
			}
			throw error;
		}
	}
}

export interface RunAsToolOptions {
	/**
	 * The node class instance: run as n8n runs a `usableAsTool` node for an AI Agent or the MCP
	 * Server Trigger.
	 */
	nodeType: INodeType;
	/** The tool node's parameters, with `$fromAI()` expressions where the model fills a value. */
	parameters: INodeParameters;
	credentials?: HarnessCredentials;
	/** The arguments of each call the agent makes, in order (one tool invocation each). */
	calls: IDataObject[];
}

export interface ToolCallResult {
	/**
	 * The tool's answer as the agent receives it (n8n's JSON string of the node's output), or
	 * undefined when the call failed.
	 */
	result?: string;
	/** The error message the agent receives when the call failed. */
	error?: string;
}

export interface RunAsToolResult {
	/**
	 * The tool as n8n gives it to the agent: name, description, and the JSON schema of its arguments.
	 */
	tool: { name: string; description: string; schema: unknown };
	calls: ToolCallResult[];
	/** An error of the run itself (the tool could not be built). */
	error?: Error;
}

/**
 * Run `nodeType` as an AI agent's tool through n8n-core's own tool path: the node type converted
 * as n8n's loader converts a `usableAsTool` node (`<name>Tool`, output ai_tool, Tool Description),
 * connected to a harness agent node that takes the tools with getInputConnectionData (n8n-core's
 * createNodeAsTool: the arguments' schema from the `$fromAI()` calls) and invokes the tool once
 * per entry of `calls`, as an agent does when a model calls it.
 */
export async function runAsTool(options: RunAsToolOptions): Promise<RunAsToolResult> {
	await ensureEnvironment();
	const nodeTypes = new HarnessNodeTypes();
	const toolType = asToolType(options.nodeType);
	const typeName = nodeTypes.registerAs(`${PACKAGE_NAME}.${toolType.description.name}`, toolType);
	const outcome: { tool?: RunAsToolResult['tool']; calls: ToolCallResult[] } = { calls: [] };
	nodeTypes.registerAs(INPUT_NODE_TYPE, createInputNodeType([{ json: {} }]));
	nodeTypes.registerAs(AGENT_NODE_TYPE, createAgentNodeType(options.calls, outcome));

	const inputNode: INode = {
		id: 'harness-input-node',
		name: INPUT_NODE_NAME,
		type: INPUT_NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	const agentNode: INode = {
		id: 'harness-agent-node',
		name: AGENT_NODE_NAME,
		type: AGENT_NODE_TYPE,
		typeVersion: 1,
		position: [220, 0],
		parameters: {},
	};
	const toolNode: INode = {
		id: NODE_ID,
		name: NODE_NAME,
		type: typeName,
		typeVersion: defaultVersionOf(options.nodeType),
		position: [220, 200],
		parameters: deepCopy(options.parameters),
		...(options.credentials && { credentials: nodeCredentialsFor(options.credentials) }),
	};
	const workflow = new Workflow({
		id: WORKFLOW_ID,
		name: 'Harness tool workflow',
		nodes: [inputNode, agentNode, toolNode],
		connections: {
			[INPUT_NODE_NAME]: { main: [[{ node: AGENT_NODE_NAME, type: 'main' as const, index: 0 }]] },
			[NODE_NAME]: { ai_tool: [[{ node: AGENT_NODE_NAME, type: 'ai_tool' as const, index: 0 }]] },
		},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	const mode: WorkflowExecuteMode = 'manual';
	const executionId = nextExecutionId();
	const additionalData = createAdditionalData(
		new HarnessCredentialsHelper(options.credentials),
		executionId,
		new ExecutionLifecycleHooks(
			mode,
			executionId,
			workflowBase(workflow, [inputNode, agentNode, toolNode]),
		),
	);
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node: inputNode, data: { main: [[{ json: {} }]] }, source: null }],
		},
	});
	const run = await new WorkflowExecute(
		additionalData,
		mode,
		runExecutionData,
	).processRunExecutionData(workflow);
	const agentError =
		run.data.resultData.runData[AGENT_NODE_NAME]?.[0]?.error ?? run.data.resultData.error;
	if (!outcome.tool)
		return {
			tool: { name: '', description: '', schema: undefined },
			calls: outcome.calls,
			error: agentError
				? new Error(
						String((agentError as { message?: unknown }).message ?? JSON.stringify(agentError)),
					)
				: new UnexpectedError('the tool was not built'),
		};
	return { tool: outcome.tool, calls: outcome.calls };
}

const AGENT_NODE_NAME = 'Harness Agent';
const AGENT_NODE_TYPE = 'n8n-harness.agent';

/**
 * The node type as n8n's loader offers a `usableAsTool` node to agents (packages/cli
 * tool-generation/ai-tools.ts, convertNodeToAiTool).
 */
function asToolType(nodeType: INodeType): INodeType {
	const description = deepCopy(nodeType.description);
	const hasResource = description.properties.some(
		(property) => property.name === 'resource' || property.name === 'operation',
	);
	description.name += 'Tool';
	description.displayName += ' Tool';
	description.inputs = [];
	description.outputs = ['ai_tool'];
	delete description.usableAsTool;
	const toolDescription: INodeProperties = {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: description.description,
		required: true,
		...(hasResource && { displayOptions: { show: { descriptionType: ['manual'] } } }),
	};
	const descriptionType: INodeProperties = {
		displayName: 'Tool Description',
		name: 'descriptionType',
		type: 'options',
		noDataExpression: true,
		options: [
			{ name: 'Set Automatically', value: 'auto' },
			{ name: 'Set Manually', value: 'manual' },
		],
		default: 'auto',
	};
	description.properties = [
		...(hasResource ? [descriptionType] : []),
		toolDescription,
		...description.properties,
	];
	// A prototype-linked copy: execute and methods stay the node's own.
	return Object.assign(Object.create(nodeType) as INodeType, { description });
}

interface AgentTool {
	name: string;
	description: string;
	schema: unknown;
	invoke(args: IDataObject): Promise<unknown>;
}

/**
 * A stand-in for n8n's AI Agent: takes the connected tools as an agent does and calls the first
 * once per entry of `calls`.
 */
function createAgentNodeType(
	calls: IDataObject[],
	outcome: { tool?: RunAsToolResult['tool']; calls: ToolCallResult[] },
): INodeType {
	return {
		description: {
			displayName: 'Harness Agent',
			name: 'agent',
			group: ['transform'],
			version: 1,
			description: 'Calls the connected tool with the arguments given to runAsTool()',
			defaults: { name: AGENT_NODE_NAME },
			inputs: ['main', { type: 'ai_tool', displayName: 'Tool', required: true }],
			outputs: ['main'],
			properties: [],
		},
		async execute(this: IExecuteFunctions) {
			const tools = (await this.getInputConnectionData('ai_tool', 0)) as AgentTool[];
			const tool = tools[0];
			outcome.tool = { name: tool.name, description: tool.description, schema: tool.schema };
			for (const args of calls) {
				try {
					outcome.calls.push({ result: String(await tool.invoke(args)) });
				} catch (error) {
					outcome.calls.push({ error: toError(error).message });
				}
			}
			return [outcome.calls.map((call) => ({ json: { ...call } }))];
		},
	};
}

/** Call `methods.listSearch[methodName]` like the editor does for a resource locator. */
export async function callListSearch(
	nodeType: INodeType | IVersionedNodeType,
	methodName: string,
	credentials?: HarnessCredentials,
	filter?: string,
	paginationToken?: string,
	parameters: INodeParameters = {},
): Promise<INodeListSearchResult> {
	const { context, resolved } = await createLoadOptionsContext(nodeType, credentials, parameters);
	const method = resolved.methods?.listSearch?.[methodName];
	if (typeof method !== 'function') {
		throw new UnexpectedError(`Node has no methods.listSearch.${methodName}`);
	}
	return await method.call(context, filter, paginationToken);
}

/** Call `methods.loadOptions[methodName]` like the editor does for an options dropdown. */
export async function callLoadOptions(
	nodeType: INodeType | IVersionedNodeType,
	methodName: string,
	credentials?: HarnessCredentials,
	parameters: INodeParameters = {},
): Promise<INodePropertyOptions[]> {
	const { context, resolved } = await createLoadOptionsContext(nodeType, credentials, parameters);
	const method = resolved.methods?.loadOptions?.[methodName];
	if (typeof method !== 'function') {
		throw new UnexpectedError(`Node has no methods.loadOptions.${methodName}`);
	}
	return await method.call(context);
}

/** Call `methods.credentialTest[methodName]` like the credential modal's "Test" button does. */
export async function callCredentialTest(
	nodeType: INodeType | IVersionedNodeType,
	methodName: string,
	credentials: HarnessCredentials,
): Promise<INodeCredentialTestResult> {
	await ensureEnvironment();
	const resolved = NodeHelpers.getVersionedNodeType(nodeType, defaultVersionOf(nodeType));
	const method: ICredentialTestFunction | undefined =
		resolved.methods?.credentialTest?.[methodName];
	if (typeof method !== 'function') {
		throw new UnexpectedError(`Node has no methods.credentialTest.${methodName}`);
	}
	const helper = new HarnessCredentialsHelper(credentials);
	const decrypted: ICredentialsDecrypted = {
		...credentialRef(credentials),
		type: credentials.type,
		data: await helper.applyDefaultsAndResolve(createAdditionalData(helper), 'internal'),
	};
	const context: ICredentialTestFunctions = new CredentialTestContext();
	return await method.call(context, decrypted);
}

/**
 * Run the credential type's declarative `test` request (the "Test" button for credentials with
 * `test: ICredentialTestRequest`) through RoutingNode, with n8n's CredentialsTester semantics.
 */
export async function testCredentials(
	credentials: HarnessCredentials,
): Promise<INodeCredentialTestResult> {
	await ensureEnvironment();
	const { test } = credentials.credentialType;
	if (!test) throw new UnexpectedError(`Credential type ${credentials.type} has no "test"`);

	const helper = new HarnessCredentialsHelper(credentials);
	const baseAdditionalData = createAdditionalData(helper);
	const decrypted: ICredentialsDecrypted = {
		...credentialRef(credentials),
		type: credentials.type,
		data: await helper.applyDefaultsAndResolve(baseAdditionalData, 'internal'),
	};
	// Same temporary node type as CredentialsTester builds: one property routed to the test request.
	const testNodeType: INodeType = {
		description: {
			displayName: 'Credential Test',
			name: 'credentialTest',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: { name: 'Credential Test' },
			inputs: [],
			outputs: [],
			credentials: [{ name: credentials.type, required: true }],
			properties: [
				{
					displayName: 'Temp',
					name: 'temp',
					type: 'string',
					default: '',
					routing: { request: test.request },
				},
			],
		},
	};
	const nodeTypes = new HarnessNodeTypes();
	const type = nodeTypes.register(testNodeType);
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: nodeCredentialsFor(credentials),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const context = new ExecuteContext(
		workflow,
		node,
		baseAdditionalData,
		'internal',
		createRunExecutionData(),
		0,
		[],
		{ main: [[{ json: {} }]] },
		{ node, data: {}, source: null },
		[],
	);

	let response: INodeExecutionData[][] | undefined;
	try {
		response = await new RoutingNode(context, testNodeType, decrypted).runNode();
	} catch (error) {
		type Cause = { response?: { status: number; statusText?: string }; code?: string };
		const { cause } = error as { cause?: Cause };
		if (cause?.response) {
			const { status, statusText } = cause.response;
			for (const rule of test.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === status) {
					return { status: 'Error', message: rule.properties.message };
				}
			}
			if (status < 199 || status > 299) {
				return { status: 'Error', message: statusText || `Received HTTP status code: ${status}` };
			}
		} else if (cause?.code) {
			return { status: 'Error', message: cause.code };
		}
		return { status: 'Error', message: String(toError(error).message) };
	}
	for (const rule of test.rules ?? []) {
		if (rule.type === 'responseSuccessBody') {
			const body = response?.[0]?.[0]?.json ?? {};
			if (getPath(body, rule.properties.key) === rule.properties.value) {
				return { status: 'Error', message: rule.properties.message };
			}
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}

/**
 * Build an input item carrying `data` as binary property `propertyName`, stored through n8n's
 * `prepareBinaryData` + BinaryDataService exactly as an upstream node (e.g. Read File) would.
 * The node under test reads it with `this.helpers.getBinaryDataBuffer(i, propertyName)` or, in
 * filesystem mode, `this.helpers.getBinaryStream(binary.id)`.
 */
export async function binaryItem(
	json: IDataObject,
	propertyName: string,
	data: Buffer,
	fileName: string,
	mimeType: string,
	/** The execution that stored it: `temp` is a trigger's upload, stored before its execution. */
	executionId = INPUT_EXECUTION_ID,
): Promise<INodeExecutionData> {
	await ensureEnvironment();
	const binary = await prepareBinaryData(data, executionId, WORKFLOW_ID, fileName, mimeType);
	return { json, binary: { [propertyName]: binary } };
}

/** Read the bytes of a binary property from a node's output, whatever the binary data mode. */
export async function readBinary(binary: IBinaryData): Promise<Buffer> {
	await ensureEnvironment();
	return await Container.get(BinaryDataService).getAsBuffer(binary);
}

/**
 * Binary data storage mode. `filesystem` (default) is n8n 2.x's default: binary data lives in a
 * temp dir and items carry `{ id: 'filesystem-v2:…', data: 'filesystem-v2' }`, so nodes must use
 * the helpers instead of decoding `binary.data`. `default` keeps base64 inline in `binary.data`.
 * Call before creating items with `binaryItem`.
 */
export async function setBinaryDataMode(mode: BinaryDataMode): Promise<void> {
	const env = await ensureEnvironment();
	if (env.binaryDataMode !== mode) await installBinaryDataService(env, mode);
}

// ---------------------------------------------------------------------------------------------
// Process-wide n8n environment (DI container). One per jest module registry, i.e. per test file.
// ---------------------------------------------------------------------------------------------

interface Environment {
	rootDir: string;
	logger: Logger;
	instanceSettings: InstanceSettings;
	binaryDataMode: BinaryDataMode;
}

let environment: Promise<Environment> | undefined;
let rootDirToRemove: string | undefined;

// Remove the temp n8n folder (settings file + binary data) after the test file.
if (typeof afterAll === 'function') {
	afterAll(() => {
		if (rootDirToRemove) rmSync(rootDirToRemove, { recursive: true, force: true });
		rootDirToRemove = undefined;
		environment = undefined;
	});
}

async function ensureEnvironment(): Promise<Environment> {
	environment ??= createEnvironment();
	return await environment;
}

async function createEnvironment(): Promise<Environment> {
	allowLocalhostThroughProxies();

	// Silence n8n: the backend Logger is resolved from DI by node contexts, error reporter,
	// request helpers; LoggerProxy is n8n-workflow's global logger used by WorkflowExecute.
	const logger = createSilentLogger();
	Container.set(Logger, logger);
	LoggerProxy.init(logger as unknown as WorkflowLogger);

	// Real InstanceSettings, but rooted in a private temp dir instead of ~/.n8n (it writes a
	// settings file with an encryption key on construction).
	const rootDir = mkdtempSync(path.join(tmpdir(), 'n8n-node-harness-'));
	rootDirToRemove = rootDir;
	// Outside jest (e.g. a tsx script) there is no afterAll: clean up when the process exits.
	if (typeof afterAll !== 'function') {
		process.once('exit', () => rmSync(rootDir, { recursive: true, force: true }));
	}
	const instanceSettingsConfig = {
		n8nFolder: path.join(rootDir, '.n8n'),
		userHome: rootDir,
		encryptionKey: 'n8n-node-harness-encryption-key',
		enforceSettingsFilePermissions: false,
	} as InstanceSettingsConfig;
	const instanceSettings = new InstanceSettings(instanceSettingsConfig, logger);
	Container.set(InstanceSettings, instanceSettings);

	// Tests talk to 127.0.0.1, which SSRF protection (N8N_SSRF_PROTECTION_ENABLED) would block.
	Container.get(SsrfProtectionConfig).enabled = false;

	// What nodes processed (this.helpers.checkProcessedAndRecord): n8n's rules, kept in memory.
	await DataDeduplicationService.init(processedData);

	const env: Environment = { rootDir, logger, instanceSettings, binaryDataMode: 'filesystem' };
	await installBinaryDataService(env, 'filesystem');
	return env;
}

async function installBinaryDataService(env: Environment, mode: BinaryDataMode): Promise<void> {
	// Built by hand (not Container.get) so env vars like N8N_DEFAULT_BINARY_DATA_MODE can't leak in.
	const config = Object.assign(Object.create(BinaryDataConfig.prototype) as BinaryDataConfig, {
		mode,
		availableModes: ['filesystem'],
		localStoragePath: path.join(env.rootDir, 'binaryData'),
		signingSecret: 'n8n-node-harness-signing-secret',
		dbMaxFileSize: 512,
	});
	const service = new BinaryDataService(config, Container.get(ErrorReporter), env.logger);
	// init() registers the filesystem manager; in 'default' mode no manager matches the mode,
	// so BinaryDataService keeps data inline (base64), exactly like n8n's in-memory mode.
	await service.init();
	Container.set(BinaryDataService, service);
	env.binaryDataMode = mode;
}

function createSilentLogger(): Logger {
	const noop = () => {};
	const silent = { error: noop, warn: noop, info: noop, debug: noop } as Record<string, unknown>;
	silent.scoped = () => silent;
	return silent as unknown as Logger;
}

/**
 * If the environment sets an HTTP(S) proxy, make sure requests to the local test server bypass it.
 */
function allowLocalhostThroughProxies() {
	const proxyVars = [
		'HTTP_PROXY',
		'HTTPS_PROXY',
		'ALL_PROXY',
		'http_proxy',
		'https_proxy',
		'all_proxy',
	];
	if (!proxyVars.some((name) => process.env[name])) return;
	for (const name of ['NO_PROXY', 'no_proxy']) {
		const current = process.env[name];
		process.env[name] = [current, '127.0.0.1', 'localhost', '::1'].filter(Boolean).join(',');
	}
}

let executionCounter = 0;
function nextExecutionId(): string {
	executionCounter += 1;
	return `harness-execution-${executionCounter}`;
}

/** The subset of packages/cli getWorkflowExecuteAdditionalData that node execution touches. */
function createAdditionalData(
	credentialsHelper: ICredentialsHelper,
	executionId?: string,
	hooks?: ExecutionLifecycleHooks,
): IWorkflowExecuteAdditionalData {
	const notSupported = (what: string) => async () => {
		throw new UnexpectedError(`${what} is not supported by the test harness`);
	};
	const baseUrl = 'http://localhost:5678/';
	return {
		credentialsHelper,
		hooks,
		executionId,
		workflowId: WORKFLOW_ID,
		userId: 'harness-user',
		currentNodeExecutionIndex: 0,
		restApiUrl: `${baseUrl}rest`,
		instanceBaseUrl: baseUrl,
		formBaseUrl: `${baseUrl}form`,
		formWaitingBaseUrl: `${baseUrl}form-waiting`,
		formTestBaseUrl: `${baseUrl}form-test`,
		webhookBaseUrl: `${baseUrl}webhook`,
		webhookWaitingBaseUrl: `${baseUrl}webhook-waiting`,
		webhookTestBaseUrl: `${baseUrl}webhook-test`,
		mcpBaseUrl: `${baseUrl}mcp`,
		mcpTestBaseUrl: `${baseUrl}mcp-test`,
		variables: {},
		externalSecretsProxy: Container.get(ExternalSecretsProxy),
		logAiEvent: () => {},
		executeWorkflow: notSupported('executeWorkflow'),
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		startRunnerTask: notSupported('startRunnerTask'),
	};
}

function workflowBase(workflow: Workflow, nodes: INode[]): IWorkflowBase {
	const now = new Date();
	return {
		id: workflow.id,
		name: workflow.name ?? 'Harness workflow',
		active: false,
		isArchived: false,
		activeVersionId: null,
		createdAt: now,
		updatedAt: now,
		nodes,
		connections: workflow.connectionsBySourceNode,
		settings: workflow.settings,
	};
}

async function createLoadOptionsContext(
	nodeType: INodeType | IVersionedNodeType,
	credentials: HarnessCredentials | undefined,
	parameters: INodeParameters,
): Promise<{ context: ILoadOptionsFunctions; resolved: INodeType }> {
	await ensureEnvironment();
	const nodeTypes = new HarnessNodeTypes();
	const type = nodeTypes.register(nodeType);
	const typeVersion = defaultVersionOf(nodeType);
	// Same temp workflow as DynamicNodeParametersService.getWorkflow.
	const node: INode = {
		id: 'uuid-1234',
		name: 'Temp-Node',
		type,
		typeVersion,
		position: [0, 0],
		parameters: deepCopy(parameters),
		...(credentials && { credentials: nodeCredentialsFor(credentials) }),
	};
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = createAdditionalData(new HarnessCredentialsHelper(credentials));
	// The editor sends the node's full parameters (defaults included); Workflow applied them above.
	additionalData.currentNodeParameters = workflow.nodes[node.name].parameters;
	const context = new LoadOptionsContext(
		workflow,
		workflow.nodes[node.name],
		additionalData,
		'parameters',
	);
	return { context, resolved: nodeTypes.getByNameAndVersion(type, typeVersion) };
}

// ---------------------------------------------------------------------------------------------
// Node types
// ---------------------------------------------------------------------------------------------

const PACKAGE_NAME = readPackageName();

function readPackageName(): string {
	try {
		const pkg = JSON.parse(readFileSync(path.join(__dirname, '../../package.json'), 'utf8')) as {
			name?: string;
		};
		return pkg.name ?? 'n8n-nodes-under-test';
	} catch {
		return 'n8n-nodes-under-test';
	}
}

function defaultVersionOf(nodeType: INodeType | IVersionedNodeType): number {
	// VersionedNodeType.currentVersion is description.defaultVersion ?? the latest version.
	if ('nodeVersions' in nodeType) return nodeType.currentVersion;
	const { version } = nodeType.description;
	return Array.isArray(version) ? Math.max(...version) : version;
}

/** Minimal INodeTypes: what the CLI's NodeTypes does for a loaded community package. */
class HarnessNodeTypes implements INodeTypes {
	private readonly types = new Map<string, INodeType | IVersionedNodeType>();

	private readonly resolved = new Map<string, INodeType>();

	/** Registers under `<package name>.<description.name>`, like n8n names community nodes. */
	register(nodeType: INodeType | IVersionedNodeType): string {
		return this.registerAs(`${PACKAGE_NAME}.${nodeType.description.name}`, nodeType);
	}

	registerAs(name: string, nodeType: INodeType | IVersionedNodeType): string {
		this.types.set(name, nodeType);
		return name;
	}

	getByName(name: string): INodeType | IVersionedNodeType {
		const nodeType = this.types.get(name);
		if (!nodeType) throw new UnexpectedError(`Unknown node type "${name}"`);
		return nodeType;
	}

	getByNameAndVersion(name: string, version?: number): INodeType {
		const key = `${name}@${version ?? 'default'}`;
		let nodeType = this.resolved.get(key);
		if (!nodeType) {
			nodeType = withLoaderAdjustments(
				NodeHelpers.getVersionedNodeType(this.getByName(name), version),
			);
			this.resolved.set(key, nodeType);
		}
		return nodeType;
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/**
 * n8n's package loader adds the common "requestOptions" parameter (batching, proxy, timeout, SSL)
 * to declarative nodes. Apply it to a prototype-linked copy so the test's instance isn't mutated
 * and class methods (execute, methods) stay reachable.
 */
function withLoaderAdjustments(nodeType: INodeType): INodeType {
	const copy = Object.create(nodeType) as INodeType;
	copy.description = { ...nodeType.description, properties: [...nodeType.description.properties] };
	DirectoryLoader.applyDeclarativeNodeOptionParameters(copy);
	return copy;
}

/** Start node of the harness workflow: emits the test's input items (binary included). */
function createInputNodeType(items: INodeExecutionData[]): INodeType {
	return {
		description: {
			displayName: 'Harness Input',
			name: 'input',
			group: ['input'],
			version: 1,
			description: 'Emits the items given to runNode()',
			defaults: { name: INPUT_NODE_NAME },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute() {
			return [deepCopy(items)];
		},
	};
}

function credentialRef(credentials: HarnessCredentials): { id: string; name: string } {
	return { id: 'harness-credential', name: `${credentials.credentialType.displayName} (test)` };
}

function nodeCredentialsFor(
	credentials: HarnessCredentials,
): Record<string, INodeCredentialsDetails> {
	if (credentials.type !== credentials.credentialType.name) {
		throw new UnexpectedError(
			`credentials.type "${credentials.type}" does not match credentialType.name "${credentials.credentialType.name}"`,
		);
	}
	return { [credentials.type]: credentialRef(credentials) };
}

// ---------------------------------------------------------------------------------------------
// Credentials helper (mirrors packages/cli/src/credentials-helper.ts for a single credential)
// ---------------------------------------------------------------------------------------------

/** Node type stand-in used when resolving credential expressions outside a node run. */
const mockNode: INode = {
	id: 'mock',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};
const mockNodeTypes: INodeTypes = {
	getByName: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getByNameAndVersion: () => ({ description: { properties: [] } }) as unknown as INodeType,
	getKnownTypes: () => ({}),
};

export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Decrypted data "in the database"; updated by preAuthentication like the real helper does. */
	private storedData: ICredentialDataDecryptedObject | undefined;

	/**
	 * Loads of the main credential through getDecrypted (what n8n does, from its database, per
	 * getCredentials).
	 */
	reads = 0;

	constructor(
		private readonly credentials?: HarnessCredentials,
		private readonly extras: HarnessCredentials[] = [],
	) {
		super();
		this.storedData = credentials && deepCopy(credentials.data);
	}

	private extra(typeName: string): HarnessCredentials | undefined {
		return this.credentials?.type === typeName
			? undefined
			: this.extras.find((extra) => extra.type === typeName);
	}

	private getType(typeName: string): ICredentialType {
		const extra = this.extra(typeName);
		if (extra) return extra.credentialType;
		if (!this.credentials || this.credentials.type !== typeName) {
			throw new UnexpectedError(`No test credentials of type "${typeName}" were given`);
		}
		return this.credentials.credentialType;
	}

	getParentTypes(typeName: string): string[] {
		// Only the direct parents are known; parent properties are not merged (no OAuth support).
		return this.credentials?.type === typeName
			? (this.credentials.credentialType.extends ?? [])
			: [];
	}

	isCredentialUsableByNode(credentialType: string, nodeType: string): boolean {
		const typeDef = this.credentials?.credentialType;
		if (!typeDef || typeDef.name !== credentialType || !typeDef.restrictToSupportedNodes)
			return true;
		return (typeDef.supportedNodes ?? []).some(
			(name) => nodeType === name || nodeType.endsWith(`.${name}`),
		);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		return this.getType(type).properties;
	}

	async getCredentials(
		nodeCredentials: INodeCredentialsDetails,
		type: string,
	): Promise<Credentials> {
		this.getType(type);
		const credentials = new Credentials(
			{ id: nodeCredentials.id, name: nodeCredentials.name },
			type,
		);
		await credentials.setData(deepCopy(this.extra(type)?.data ?? this.storedData ?? {}));
		return credentials;
	}

	async getDecrypted(
		additionalData: IWorkflowExecuteAdditionalData,
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		raw?: boolean,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const typeDef = this.getType(type);
		const extra = this.extra(type);
		if (extra) {
			const data = deepCopy(extra.data);
			return raw === true
				? data
				: (NodeHelpers.getNodeParameters(
						typeDef.properties,
						data as INodeParameters,
						true,
						false,
						null,
						null,
					) as ICredentialDataDecryptedObject);
		}
		this.reads++;
		if (raw === true) return deepCopy(this.storedData ?? {});
		return await this.applyDefaultsAndResolve(
			additionalData,
			mode,
			executeData,
			expressionResolveValues,
		);
	}

	/** CredentialsHelper.applyDefaultsAndOverwrites minus overwrites: defaults + expressions. */
	async applyDefaultsAndResolve(
		additionalData: IWorkflowExecuteAdditionalData,
		mode: WorkflowExecuteMode,
		executeData?: IExecuteData,
		expressionResolveValues?: ICredentialsExpressionResolveValues,
	): Promise<ICredentialDataDecryptedObject> {
		const { credentialType } = this.credentials!;
		const original = deepCopy(this.storedData ?? {});
		let decrypted = NodeHelpers.getNodeParameters(
			credentialType.properties,
			original as INodeParameters,
			true,
			false,
			null,
			null,
		) as ICredentialDataDecryptedObject;
		if (original.oauthTokenData !== undefined) decrypted.oauthTokenData = original.oauthTokenData;

		const additionalKeys = getAdditionalKeys(additionalData, mode, null, { isCredential: true });
		if (expressionResolveValues) {
			const { workflow, runExecutionData, runIndex, itemIndex, node, connectionInputData } =
				expressionResolveValues;
			decrypted = workflow.expression.getParameterValue(
				decrypted as INodeParameters,
				runExecutionData,
				runIndex,
				itemIndex,
				node.name,
				connectionInputData,
				mode,
				additionalKeys,
				executeData,
				false,
				decrypted,
			) as ICredentialDataDecryptedObject;
		} else {
			const workflow = new Workflow({
				nodes: [mockNode],
				connections: {},
				active: false,
				nodeTypes: mockNodeTypes,
			});
			decrypted = workflow.expression.getComplexParameterValue(
				mockNode,
				decrypted as INodeParameters,
				mode,
				additionalKeys,
				undefined,
				undefined,
				decrypted,
			) as ICredentialDataDecryptedObject;
		}
		return decrypted;
	}

	/**
	 * Same as CredentialsHelper.authenticate: function `authenticate`, or generic with expressions.
	 */
	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		incomingRequestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
		workflow?: Workflow,
		node?: INode,
	): Promise<IHttpRequestOptions> {
		const requestOptions = incomingRequestOptions as IHttpRequestOptions & Record<string, unknown>;
		const { authenticate } = this.getType(typeName);
		if (typeof authenticate === 'function') {
			return await authenticate(credentials, requestOptions);
		}
		if (typeof authenticate === 'object' && authenticate.type === 'generic') {
			if (!workflow || !node) {
				throw new UnexpectedError(
					'Workflow and node are required for declarative credential authentication',
				);
			}
			requestOptions.headers ??= {};
			for (const [outerKey, outerValue] of Object.entries(authenticate.properties)) {
				for (const [key, value] of Object.entries(outerValue as Record<string, string>)) {
					const keyResolved = resolveValue(key, credentials, workflow, node);
					const valueResolved = resolveValue(value, credentials, workflow, node);
					const target = (requestOptions[outerKey] ??= {}) as Record<string, unknown>;
					target[keyResolved] = valueResolved;
				}
			}
		}
		return requestOptions;
	}

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.getType(typeName);
		const expirable = credentialType.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (expirable?.name === undefined || typeof credentialType.preAuthentication !== 'function') {
			return undefined;
		}
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await credentialType.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		if (node.credentials) {
			// "Persist" the fresh token so later requests reuse it, like the DB update in n8n.
			this.storedData = { ...(this.storedData ?? {}), ...output };
			return Object.assign(credentials, output);
		}
		return undefined;
	}

	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const credentialType = this.getType(typeName);
		if (typeof credentialType.preAuthentication !== 'function') return undefined;
		const output = await credentialType.preAuthentication.call(helpers, credentials);
		return (output as ICredentialDataDecryptedObject) ?? undefined;
	}

	async updateCredentials(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.getType(type);
		this.storedData = deepCopy(data);
	}

	async updateCredentialsOauthTokenData(
		_nodeCredentials: INodeCredentialsDetails,
		type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.getType(type);
		this.storedData = { ...(this.storedData ?? {}), oauthTokenData: data.oauthTokenData };
	}
}

/** CredentialsHelper.resolveValue: evaluate `={{ ... }}` with `$credentials` in scope. */
function resolveValue(
	value: string,
	credentials: ICredentialDataDecryptedObject,
	workflow: Workflow,
	node: INode,
): string {
	if (!isExpression(value)) return value;
	const resolved = workflow.expression.getSimpleParameterValue(
		node,
		value,
		'internal',
		{ $credentials: credentials },
		undefined,
		'',
	);
	return resolved ? resolved.toString() : '';
}

// ---------------------------------------------------------------------------------------------
// Small utilities
// ---------------------------------------------------------------------------------------------

function toError(error: unknown): Error {
	return error instanceof Error ? error : new UnexpectedError(String(error));
}

function getPath(object: IDataObject, key: string): unknown {
	return key.split('.').reduce<unknown>((value, part) => {
		return value !== null && typeof value === 'object' ? (value as IDataObject)[part] : undefined;
	}, object);
}
