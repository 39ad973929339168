import type { ICredentialTestFunctions, ICredentialsDecrypted, INodeCredentialTestResult } from 'n8n-workflow';

import { platformMessage } from '../../../src/errors';
import { collectionResponse, identifiedObjectResponse, isRecord } from '../../../src/schemas/responses';
import { DEFAULT_TIMEOUT_SECONDS } from '../../../src/transport';

interface Answer {
	status: number;
	body: unknown;
	location?: string;
}

interface Probe {
	field: 'listsBaseUrl' | 'walletBaseUrl' | 'baseUrl';
	label: string;
	/** A request of the spec that proves the key and the URL. */
	path: string;
	/**
	 * A path no platform serves, asked only when the probe answers a 4xx: the probe's "not found"
	 * must differ from this "no such route", so a wrong URL on a host answering JSON 404s fails.
	 */
	control?: string;
	/** What a 2xx answer must look like. */
	fits: (body: unknown) => boolean;
}

const CONTROL = '/__credential-test-no-such-route';
const UNKNOWN_LIST_ID = 2147483647;

/**
 * Only endpoints of the spec (no GET /lists): a list that does not exist (GET /lists/{id} with
 * the largest 32-bit id), the wallet template list (limit=1), and the blacklist lookup of a
 * reserved number.
 */
const PROBES: Probe[] = [
	{ field: 'listsBaseUrl', label: 'Lists Base URL', path: `/lists/${UNKNOWN_LIST_ID}`, control: `/lists/${UNKNOWN_LIST_ID}${CONTROL}`, fits: (body) => identifiedObjectResponse.safeParse(body).success },
	{ field: 'walletBaseUrl', label: 'Wallet Base URL', path: '/v2/wallet/templates?limit=1', fits: (body) => collectionResponse.safeParse(body).success },
	{
		field: 'baseUrl',
		label: 'Messaging Base URL',
		path: '/subscribers?type=SMS&from=credentialtest&listType=BLACK&to=%2B10000000000',
		control: `${CONTROL}?type=SMS&from=credentialtest&listType=BLACK&to=%2B10000000000`,
		fits: (body) => identifiedObjectResponse.safeParse(body).success,
	},
];

/** A "not found" answer with the request's own path taken out, to compare two of them. */
function notFoundSignature(answer: Answer, path: string): string {
	const withoutQuery = path.split('?')[0];
	const text = platformMessage(answer.body) ?? (isRecord(answer.body) ? JSON.stringify({ ...answer.body, meta: undefined }) : String(answer.body ?? ''));
	return `${answer.status} ${text.split(withoutQuery).join('<path>')}`;
}

/**
 * Credential test: the key must be accepted at each of the three base URLs, each checked on its
 * own; every URL that fails is named in one message. Redirects are not followed (the key stays
 * at the address given).
 */
export async function audienceMessagingApiTest(this: ICredentialTestFunctions, credential: ICredentialsDecrypted): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const seconds = Number(data.timeout);
	const timeout = (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000;
	const ask = async (base: string, path: string): Promise<Answer> => {
		// n8n's credential-test context offers no other request helper than `request`; a declarative
		// `test` on the credential could check one base URL only. The scanner still lists it (README).
		// eslint-disable-next-line @n8n/community-nodes/no-deprecated-workflow-functions
		const response = (await this.helpers.request({
			method: 'GET',
			uri: `${base}${path}`,
			headers: { Authorization: `Bearer ${String(data.apiKey ?? '')}`, Accept: 'application/json' },
			json: true,
			simple: false,
			resolveWithFullResponse: true,
			followRedirect: false,
			followAllRedirects: false,
			timeout,
		})) as { statusCode: number; body: unknown; headers?: Record<string, unknown> };
		return { status: response.statusCode, body: response.body, location: response.headers?.location as string | undefined };
	};

	const check = async (probe: Probe): Promise<string | undefined> => {
		const base = String(data[probe.field] ?? '').trim().replace(/\/+$/, '');
		if (!/^https?:\/\/[^/]/i.test(base)) return `${probe.label} must start with http:// or https://`;
		let answer: Answer;
		try {
			answer = await ask(base, probe.path);
		} catch (error) {
			return `the ${probe.label} (${base}) could not be reached: ${(error as Error).message}`;
		}
		const said = platformMessage(answer.body);
		if (answer.status === 401 || answer.status === 403) {
			return `the platform refused the API key at the ${probe.label} (HTTP ${answer.status}${said ? `: ${said}` : ''}); check that the key is correct, active and not expired`;
		}
		if (answer.status >= 300 && answer.status < 400) {
			return `the ${probe.label} (${base}) redirects to ${answer.location ?? 'another address'}: put the final address in the credential`;
		}
		if (answer.status >= 200 && answer.status < 300 && probe.fits(answer.body)) return undefined;
		if (answer.status >= 400 && answer.status < 500 && probe.control && isRecord(answer.body)) {
			let control: Answer | undefined;
			try {
				control = await ask(base, probe.control);
			} catch {
				control = undefined;
			}
			if (control && notFoundSignature(control, probe.control) !== notFoundSignature(answer, probe.path)) return undefined;
		}
		return `the ${probe.label} (${base}) does not answer like the platform's API (HTTP ${answer.status}${said ? `: ${said}` : ''}); check the URL`;
	};

	const problems = (await Promise.all(PROBES.map(check))).filter((problem): problem is string => !!problem);
	if (problems.length) {
		const message = problems.join('; ');
		return { status: 'Error', message: `${message.charAt(0).toUpperCase()}${message.slice(1)}.` };
	}
	return { status: 'OK', message: 'The API key works at all three base URLs' };
}
