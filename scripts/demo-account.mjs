// The stand-in for a user's platform account that `npm start` puts in the sandbox at each start:
// the sender, the people who wrote to it and the list the recipes (demo/workflows/r*.json) use with
// the values of their Settings node. A user with an account puts theirs in those Settings.

/** An ACTIVE chat-app sender with a known ID (Sender ID for Rate Limit, Recipe 2). */
export const DEMO_SENDER = {
	id: 'snd_000000000001',
	providerId: 'demo-provider',
	name: 'ACME',
	address: '+447700900001',
	accountTier: 1,
};
/** The list "Customers" (ID 1: the sandbox's first list); all but the last wrote in. */
export const DEMO_CUSTOMERS = [
	{ mobile: '+33612345601', first_name: 'Ada', wroteIn: true },
	{ mobile: '+33612345602', first_name: 'Alan', wroteIn: true },
	{ mobile: '+33612345603', first_name: 'Grace', wroteIn: true },
	{ mobile: '+33612345604', first_name: 'Katherine', wroteIn: false },
];
export const DEMO_LIST = { id: '1', name: 'Customers' };

async function call(url, init, what) {
	const response = await fetch(url, {
		...init,
		headers: { 'content-type': 'application/json', ...init.headers },
		signal: AbortSignal.timeout(10_000),
	});
	const body = await response.json().catch(() => undefined);
	if (!response.ok)
		throw new Error(
			`sandbox account: ${what} failed (HTTP ${response.status}) ${JSON.stringify(body)}`,
		);
	return body;
}

/** Seeds a fresh sandbox (its first list must become ID 1); resolves with a line for the log. */
export async function seedDemoAccount({ url, listsBaseUrl, apiKey }) {
	await call(
		`${url}/__sandbox/chatapp/senders`,
		{ method: 'POST', body: JSON.stringify({ ...DEMO_SENDER, active: true }) },
		'the sender',
	);
	for (const { mobile } of DEMO_CUSTOMERS.filter((customer) => customer.wroteIn))
		await call(
			`${url}/__sandbox/chatapp/inbound`,
			{ method: 'POST', body: JSON.stringify({ from: mobile, to: DEMO_SENDER.address }) },
			`${mobile} writing in`,
		);
	const { data } = await call(
		`${listsBaseUrl}/lists`,
		{
			method: 'POST',
			headers: { authorization: `Bearer ${apiKey}` },
			body: JSON.stringify({
				name: DEMO_LIST.name,
				columns: [
					{ name: 'mobile', type: 'STRING' },
					{ name: 'first_name', type: 'STRING' },
				],
				rows: DEMO_CUSTOMERS.map(({ mobile, first_name }) => ({ mobile, first_name })),
			}),
		},
		'the list',
	);
	if (String(data?.id) !== DEMO_LIST.id)
		throw new Error(`sandbox account: the list got ID ${data?.id}, not ${DEMO_LIST.id}`);
	return (
		`sender ${DEMO_SENDER.address} (${DEMO_SENDER.id}), list ${DEMO_LIST.id} "${DEMO_LIST.name}"` +
		` (${DEMO_CUSTOMERS.length} people, ${DEMO_CUSTOMERS.filter((c) => c.wroteIn).length} wrote in)`
	);
}
