/**
 * Shared set-up of the package end-to-end tests: the sandbox, a throwaway n8n user folder with
 * the packed package npm-installed into ~/.n8n/nodes (a copy of global-setup.tsx's template), a
 * credential pointing at the sandbox, and small builders for workflow JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox } from '../sandbox';
import type { Sandbox } from '../sandbox';
import {
	createUserFolder,
	importCredentials,
	importWorkflows,
	installedPackage,
	repoRoot,
} from './n8n-harness';
import type { InstalledPackage, N8nUserFolder } from './n8n-harness';

export const API_KEY = 'e2e-key-4d1c0b';
export const NODE_TYPE = 'n8n-nodes-audience-messaging.audienceMessaging';
/** The Audience Messaging credential of the e2e workflows, by type (a node's `credentials`). */
export const CREDENTIAL = {
	audienceMessagingApi: { id: 'amSandboxCred1', name: 'Audience Messaging sandbox' },
};
/** The Callbacks credential of the trigger's e2e workflows (regular mode). */
export const CALLBACKS_CREDENTIAL = {
	id: 'amE2eCallbackCrd',
	name: 'Audience Messaging callbacks (e2e)',
	type: 'audienceMessagingCallbackApi',
};
/** The OpenAI credential of the e2e agents' scripted chat model. */
export const MODEL_CREDENTIAL = {
	id: 'amE2eOpenAiCred1',
	name: 'Scripted model (e2e)',
	type: 'openAiApi',
};
/**
 * The credentials the template folder holds, empty (global-setup.tsx): a file gives one its data
 * with a database write, not an n8n start-up (importCredentials).
 */
export const TEMPLATE_CREDENTIALS = [
	{ ...CREDENTIAL.audienceMessagingApi, type: 'audienceMessagingApi' },
	CALLBACKS_CREDENTIAL,
	MODEL_CREDENTIAL,
];

export interface PackageInN8n {
	sandbox: Sandbox;
	folder: N8nUserFolder;
	installed: InstalledPackage;
}

/**
 * Registers beforeAll/afterAll that install the package into a fresh n8n and import the workflows.
 * `beforeImport` runs on the new folder before anything is imported (e.g. to point it at queue
 * mode's database); what it returns is called first at the end (e.g. to stop n8n before its folder
 * goes).
 */
export function usePackageInN8n(
	prefix: string,
	workflows: () => object[],
	options: { beforeImport?: (folder: N8nUserFolder) => Promise<(() => Promise<void>) | void> } = {},
): PackageInN8n {
	const context = {} as PackageInN8n;
	let release: (() => Promise<void>) | void;
	beforeAll(async () => {
		// The template of global-setup.tsx (the e2e project's globalSetup): n8n installed, the
		// package packed and installed, the database migrated, once per jest run.
		const template = process.env.AM_E2E_TEMPLATE;
		if (!template) throw new Error('no AM_E2E_TEMPLATE: run e2e files through the e2e project');
		context.sandbox = await startSandbox({ apiKey: API_KEY });
		context.folder = await createUserFolder(prefix, template);
		context.installed = await installedPackage(context.folder);
		release = await options.beforeImport?.(context.folder);
		const { sandbox } = context;
		await importCredentials(context.folder, [
			{
				...CREDENTIAL.audienceMessagingApi,
				type: 'audienceMessagingApi',
				data: {
					apiKey: API_KEY,
					listsBaseUrl: sandbox.listsBaseUrl,
					walletBaseUrl: sandbox.walletBaseUrl,
					baseUrl: sandbox.baseUrl,
				},
			},
		]);
		await importWorkflows(context.folder, workflows());
	});
	afterAll(async () => {
		await release?.();
		await context.sandbox?.close();
		await context.folder?.cleanup();
	});
	return context;
}

const position = (i: number): [number, number] => [i * 220, 0];

export const manualTrigger = {
	id: 'start',
	name: 'Start',
	type: 'n8n-nodes-base.manualTrigger',
	typeVersion: 1,
	position: position(0),
	parameters: {},
};

/** Connections of nodes in a straight line. */
export const chain = (...names: string[]) =>
	Object.fromEntries(
		names
			.slice(0, -1)
			.map((n, i) => [n, { main: [[{ node: names[i + 1], type: 'main', index: 0 }]] }]),
	);

/** An Audience Messaging node using the sandbox credential. */
export const audienceNode = (
	name: string,
	i: number,
	parameters: Record<string, unknown>,
	extra: Record<string, unknown> = {},
) => ({
	id: `am-${i}`,
	name,
	type: NODE_TYPE,
	typeVersion: 1,
	position: position(i),
	credentials: CREDENTIAL,
	parameters,
	...extra,
});

/** A Webhook trigger on POST `path`, answering at once, its webhook ID made from the path. */
export const webhookTrigger = (path: string) => ({
	id: `hook-${path}`,
	name: 'Webhook',
	type: 'n8n-nodes-base.webhook',
	typeVersion: 2,
	position: [-220, 0],
	webhookId: `${path}-0000-4000-8000-000000000000`.slice(0, 36),
	parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
});

export const codeNode = (name: string, i: number, jsCode: string) => ({
	id: `code-${i}`,
	name,
	type: 'n8n-nodes-base.code',
	typeVersion: 2,
	position: position(i),
	parameters: { jsCode },
});

export const nodeAt = position;

export const TRIGGER_TYPE = 'n8n-nodes-audience-messaging.audienceMessagingTrigger';

/**
 * A workflow of one Audience Messaging Trigger (all events) on the given webhook ID and Callbacks
 * credential, of type version 1 (as workflows made before version 2 are) unless told.
 */
export const callbackTriggerWorkflow = (
	id: string,
	name: string,
	webhookId: string,
	credential: { id: string; name: string },
	typeVersion = 1,
) => ({
	id,
	name,
	nodes: [
		{
			id: 'trigger',
			name: 'Message Events',
			type: TRIGGER_TYPE,
			typeVersion,
			position: [0, 0],
			webhookId,
			parameters: { events: 'any' },
			credentials: { audienceMessagingCallbackApi: { id: credential.id, name: credential.name } },
		},
	],
	connections: {},
});

/** A node of a workflow read from demo/workflows. */
export interface ShippedNode {
	name: string;
	type: string;
	webhookId?: string;
	parameters: Record<string, unknown>;
	credentials?: unknown;
	onError?: string;
}

/**
 * A recipe as shipped (demo/workflows/`file`): each node with credentials given `credentials`
 * (the test's own), and its Settings node's values taken from `settings` where it names them.
 */
export function shippedRecipe(
	file: string,
	credentials: object,
	settings: Record<string, string> = {},
): { id: string; nodes: ShippedNode[] } {
	const workflow = JSON.parse(readFileSync(join(repoRoot, 'demo', 'workflows', file), 'utf8')) as {
		id: string;
		nodes: ShippedNode[];
	};
	for (const node of workflow.nodes) {
		if (node.credentials) node.credentials = credentials;
		if (node.name !== 'Settings') continue;
		const { assignments } = node.parameters.assignments as {
			assignments: Array<{ name: string; value: string }>;
		};
		for (const assignment of assignments)
			assignment.value = settings[assignment.name] ?? assignment.value;
	}
	return workflow;
}
