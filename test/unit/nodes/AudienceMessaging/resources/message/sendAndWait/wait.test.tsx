/**
 * Send and Wait for Response: a link answers only the wait that sent it; the confirm page shows the
 * message and the choice, escaped, and posts back to its own link.
 */
import {
	NO_ACTION_PAGE,
	confirmPage,
} from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/pages';
import { isLinkOf } from '../../../../../../../nodes/AudienceMessaging/resources/message/sendAndWait/wait';

const wait = { id: 'w-1234567890abcd', message: 'Publish?', labels: { true: 'Yes', false: 'No' } };

describe('isLinkOf', () => {
	it("takes a link of the current wait, and no other wait's link", () => {
		expect(isLinkOf(wait, { approved: 'true', wait: wait.id })).toBe(true);
		expect(isLinkOf(wait, { approved: 'true', wait: 'w-earlier-wait000' })).toBe(false);
		expect(isLinkOf(wait, { approved: 'true' })).toBe(false);
		expect(isLinkOf(wait, { approved: 'true', wait: [wait.id, wait.id] })).toBe(false);
	});
});

describe('confirmPage', () => {
	it('shows the message and the choice, escaped, with one button that posts to the same link', () => {
		const html = confirmPage('Delete <b>all</b> & "more"?\nNow', '✓ "Approve"');
		expect(html).toContain('<h1>✓ &quot;Approve&quot;?</h1>');
		expect(html).toContain('<p>Delete &lt;b&gt;all&lt;/b&gt; &amp; &quot;more&quot;?<br>Now</p>');
		expect(html).not.toContain('<b>all</b>');
		expect(html).toMatch(/<form method="post" enctype="application\/x-www-form-urlencoded">/);
		expect(html).not.toMatch(/action=/);
		expect(html.match(/<button/g)).toHaveLength(1);
		expect(html).toContain('<button type="submit">✓ &quot;Approve&quot;</button>');
	});

	it('without a message, only the choice', () => {
		expect(confirmPage('', 'No')).not.toContain('<p>');
	});
});

it('the page for a link of an earlier wait says nothing is needed, and has no form', () => {
	expect(NO_ACTION_PAGE).toContain('No action required');
	expect(NO_ACTION_PAGE).not.toContain('<form');
});
