/** Where platform requests go: the credential's base URLs, key and timeout, read once a run. */
import type { ICredentialsDecrypted, IExecuteFunctions, ILoadOptionsFunctions } from 'n8n-workflow';

/** What a request is made from: a node run, or the editor loading options (a list picker). */
export type RequestContext = IExecuteFunctions | ILoadOptionsFunctions;

export const CREDENTIAL_TYPE = 'audienceMessagingApi';

/** The spec's three independent base URLs and the credential field holding each. */
export type ApiBase = 'lists' | 'wallet' | 'messaging';
type BaseUrlField = 'listsBaseUrl' | 'walletBaseUrl' | 'baseUrl';

/** Per base: its credential field, and that field's label in the credential panel. */
export const BASE_URL: Record<ApiBase, { field: BaseUrlField; label: string }> = {
	lists: { field: 'listsBaseUrl', label: 'Lists Base URL' },
	wallet: { field: 'walletBaseUrl', label: 'Wallet Base URL' },
	messaging: { field: 'baseUrl', label: 'Messaging Base URL' },
};

/** Seconds a request may go without an answer, when the credential does not say. */
export const DEFAULT_TIMEOUT_SECONDS = 60;

/** The run's credential, read once: n8n loads and decrypts it on every getCredentials call. */
const credentialsOfRun = new WeakMap<object, Promise<ICredentialsDecrypted>>();

async function runCredentials(context: RequestContext): Promise<ICredentialsDecrypted> {
	let credentials = credentialsOfRun.get(context);
	if (!credentials) {
		credentials = context.getCredentials(CREDENTIAL_TYPE).then((data) => {
			const reference = context.getNode().credentials?.[CREDENTIAL_TYPE];
			return { id: reference?.id ?? '', name: reference?.name ?? '', type: CREDENTIAL_TYPE, data };
		});
		credentialsOfRun.set(context, credentials);
		// A failed read is not kept: the next request reads again (failing with n8n's message).
		credentials.catch(() => credentialsOfRun.delete(context));
	}
	return await credentials;
}

/** The credential's base URL for `base` (no trailing slash), its timeout in ms, and its key. */
export async function baseUrlOf(
	context: RequestContext,
	base: ApiBase,
): Promise<{
	baseURL: string;
	timeoutMs: number;
	apiKey: string;
	credentials: ICredentialsDecrypted;
}> {
	const credentials = await runCredentials(context);
	const data = credentials.data ?? {};
	const seconds = Number(data.timeout);
	return {
		apiKey: String(data.apiKey ?? ''),
		baseURL: String(data[BASE_URL[base].field] ?? '').replace(/\/+$/, ''),
		timeoutMs: (Number.isFinite(seconds) && seconds > 0 ? seconds : DEFAULT_TIMEOUT_SECONDS) * 1000,
		credentials,
	};
}
