/** The page the sandbox's own address shows a browser (server.tsx). */
import { ADMIN_PREFIX } from './admin-handler';

/** What the sandbox's own address shows a browser: what it is and where its parts are. */
export function frontPage(urls: {
	url: string;
	listsBaseUrl: string;
	walletBaseUrl: string;
	baseUrl: string;
}) {
	const link = (href: string) => `<a href="${href}">${href}</a>`;
	return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Audience Messaging sandbox</title></head>
<body>
<h1>Audience Messaging sandbox</h1>
<p>A stand-in for the messaging platform, for n8n-nodes-audience-messaging's demos and tests.
Its API answers only requests with the sandbox's API key (the credential <code>npm start</code>
made holds it), so a browser gets no further than this page there.</p>
<ul>
<li>Lists Base URL: <code>${urls.listsBaseUrl}</code></li>
<li>Wallet Base URL: <code>${urls.walletBaseUrl}</code></li>
<li>Messaging Base URL: <code>${urls.baseUrl}</code></li>
<li>What it holds now (lists, senders, messages, callbacks): ${link(`${urls.url}${ADMIN_PREFIX}/state`)}</li>
</ul>
</body></html>
`;
}
