import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { platformMessage } from '../../../src/errors';

interface Probe {
	field: string;
	label: string;
	path: string;
	/** Statuses that prove the key and the URL work; the blacklist lookup answers 404 for an unknown recipient. */
	ok: (status: number, body: unknown) => boolean;
}

const isPlatformJson = (body: unknown) => !!body && typeof body === 'object' && 'meta' in (body as object);

const PROBES: Probe[] = [
	{ field: 'listsBaseUrl', label: 'Lists Base URL', path: '/lists?limit=1', ok: (status) => status < 300 },
	{ field: 'walletBaseUrl', label: 'Wallet Base URL', path: '/v2/wallet/templates?limit=1', ok: (status) => status < 300 },
	{
		field: 'baseUrl',
		label: 'Messaging Base URL',
		path: '/subscribers?type=SMS&from=credentialtest&listType=BLACK&to=%2B10000000000',
		ok: (status, body) => status < 300 || (status === 404 && isPlatformJson(body)),
	},
];

/** Credential test: the key must be accepted at each of the three base URLs. */
export async function audienceMessagingApiTest(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	for (const probe of PROBES) {
		const base = String(data[probe.field] ?? '').replace(/\/+$/, '');
		if (!/^https?:\/\//i.test(base)) {
			return { status: 'Error', message: `${probe.label} must start with http:// or https://` };
		}
		let status: number;
		let body: unknown;
		try {
			const response = (await this.helpers.request({
				method: 'GET',
				uri: `${base}${probe.path}`,
				headers: { Authorization: `Bearer ${String(data.apiKey ?? '')}`, Accept: 'application/json' },
				json: true,
				simple: false,
				resolveWithFullResponse: true,
				timeout: 15000,
			})) as { statusCode: number; body: unknown };
			status = response.statusCode;
			body = response.body;
		} catch (error) {
			return { status: 'Error', message: `Could not reach the ${probe.label} (${base}): ${(error as Error).message}` };
		}
		if (status === 401 || status === 403) {
			return {
				status: 'Error',
				message: `The platform refused the API key at the ${probe.label} (HTTP ${status}): ${platformMessage(body) ?? 'check that the key is correct, active and not expired'}`,
			};
		}
		if (!probe.ok(status, body)) {
			return {
				status: 'Error',
				message: `The ${probe.label} (${base}) answered HTTP ${status}${platformMessage(body) ? `: ${platformMessage(body)}` : ''}. Check the URL.`,
			};
		}
	}
	return { status: 'OK', message: 'The API key works at all three base URLs' };
}
