/**
 * Send and Wait for Response: who counts as a link previewer (their requests never answer), and a
 * link that answers nothing when its wait cannot be read.
 */
import type { IWebhookFunctions } from 'n8n-workflow';

import { NO_ACTION_PAGE } from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/pages';
import {
	answerWebhook,
	isPreviewer,
} from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/webhook';

it.each([
	['WhatsApp/2.24.12.78 A'],
	['TelegramBot (like TwitterBot)'],
	['facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)'],
	['Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)'],
	['Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)'],
	['Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)'],
	['Mozilla/5.0 (Windows NT 10.0; Win64; x64) SkypeUriPreview Preview/0.5'],
	['Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Teams/1.6.00.4472 Chrome/80'],
	['LinkedInBot/1.0 (compatible; Mozilla/5.0)'],
	['curl/8.5.0'],
	[''],
	[undefined],
	// Issue 48: what n8n's own nodes ignore (isbot) and this package let answer before.
	['Viber/20.5.0'],
	['kakaotalk-scrap/1.0; +https://devtalk.kakao.com/'],
	['Microsoft Office Existence Discovery'],
	['Microsoft Office Protocol Discovery'],
	['Mozilla/5.0 (Windows NT 5.1; rv:11.0) Gecko Firefox/11.0 (via ggpht.com GoogleImageProxy)'],
	['YahooMailProxy; https://help.yahoo.com/kb/yahoo-mail-proxy-SLN28749.html'],
	['axios/1.7.2'],
	['node'],
	['undici'],
	['node-fetch/1.0 (+https://github.com/bitinn/node-fetch)'],
	['Java/17.0.2'],
	['Python-urllib/3.11'],
	['Python/3.11 aiohttp/3.9.1'],
	['Apache-HttpClient/4.5.14 (Java/17.0.8)'],
	['PostmanRuntime/7.39.0'],
	['Dart/3.0 (dart:io)'],
	['Mozilla/5.0 (compatible; Yahoo! Slurp)'],
])('a link previewer: %s', (userAgent) => {
	expect(isPreviewer(userAgent)).toBe(true);
});

it.each([
	[
		'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Mobile Safari/537.36',
	],
	[
		'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
	],
	// A phone whose model name ends in "bot".
	[
		'Mozilla/5.0 (Linux; Android 10; CUBOT X30) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0 Mobile Safari/537.36',
	],
	// Telegram's and WhatsApp's in-app browsers are people.
	[
		'Mozilla/5.0 (Linux; Android 13; SM-S901B) AppleWebKit/537.36 Chrome/120.0 Mobile Safari/537.36 Telegram-Android/10.6.2',
	],
])('a person: %s', (userAgent) => {
	expect(isPreviewer(userAgent)).toBe(false);
});

describe('answerWebhook: a link answers only a wait it can read', () => {
	const PERSON =
		'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
	const WAIT = JSON.stringify({
		id: 'w-1',
		message: 'Publish?',
		labels: { true: 'Yes', false: 'No' },
	});
	/**
	 * n8n's webhook call of the node, reduced to what answerWebhook reads: a POST of the approve link
	 * of wait `w-1`, with the node's context as `context` gives it (or throws).
	 */
	async function answer(context: () => unknown) {
		const page = { status: 0, headers: {} as Record<string, string>, html: '' };
		const warnings: string[] = [];
		const webhook = {
			getRequestObject: () => ({ method: 'POST', headers: { 'user-agent': PERSON } }),
			getQueryData: () => ({ approved: 'true', wait: 'w-1' }),
			getNode: () => ({ name: 'Ask', type: 'n8n-nodes-audience-messaging.audienceMessaging' }),
			getNodeParameter: (name: string, fallback: unknown) =>
				name === 'responseType' ? 'approval' : fallback,
			evaluateExpression: context,
			getResponseObject: () => ({
				writeHead: (status: number, headers: Record<string, string>) =>
					Object.assign(page, { status, headers }),
				end: (html: string) => (page.html = html),
			}),
			logger: { warn: (message: string) => warnings.push(message) },
		};
		const result = await answerWebhook.call(webhook as unknown as IWebhookFunctions);
		return { result, page, warnings };
	}

	it('answers a link of the wait the context holds', async () => {
		const { result, warnings } = await answer(() => WAIT);
		expect(result.workflowData?.[0][0].json).toEqual({
			data: { approved: true, respondedAt: expect.any(String) },
		});
		expect(warnings).toEqual([]);
	});

	it.each<[string, () => unknown, string]>([
		[
			'the expression throws',
			() => {
				throw new Error('no run data');
			},
			"the node's context could not be read (no run data)",
		],
		['the context is empty', () => '', "the node's context holds no wait"],
		['the context is not JSON', () => '{id: w-1', "the node's context could not be read"],
		['the wait has no id', () => '{"message":"Publish?"}', "the node's context holds no wait"],
	])(
		"answers nothing when %s: the no-action page, and a line in n8n's log",
		async (_, context, reason) => {
			const { result, page, warnings } = await answer(context);
			expect(result).toEqual({ noWebhookResponse: true });
			expect(page.html).toBe(NO_ACTION_PAGE);
			expect(page.headers['Content-Security-Policy']).toMatch(/frame-ancestors 'none'$/);
			expect(warnings).toEqual([
				expect.stringMatching(/^Audience Messaging: a link to answer "Ask" answered nothing: /),
			]);
			expect(warnings[0]).toContain(reason);
		},
	);
});
