import {
	REPEAT_MAX_EVENTS,
	REPEAT_WINDOW_MS,
	RecentEvents,
} from '../../../../src/platform/callback-repeats';

const event = (messageId: string, status = 'SENT') => ({
	messageId,
	status,
	date: '2026-11-21T21:05:24.123Z',
});

it('forgets an event after the window, not before', () => {
	let now = 1_000_000;
	const recent = new RecentEvents(() => now);
	expect(recent.firstSeen('wf node', [event('m1')])).toHaveLength(1);
	now += REPEAT_WINDOW_MS - 1;
	expect(recent.firstSeen('wf node', [event('m1')])).toHaveLength(0);
	now += 1;
	expect(recent.firstSeen('wf node', [event('m1')])).toHaveLength(1);
});

it(`keeps at most ${REPEAT_MAX_EVENTS} events, forgetting the oldest first`, () => {
	const recent = new RecentEvents(() => 5);
	const many = Array.from({ length: REPEAT_MAX_EVENTS + 1 }, (_, i) => event(`m${i}`));
	expect(recent.firstSeen('s', many)).toHaveLength(REPEAT_MAX_EVENTS + 1);
	// m0 was forgotten to keep the bound; m1 and the last are still known.
	expect(recent.firstSeen('s', [event('m1'), event(`m${REPEAT_MAX_EVENTS}`)])).toHaveLength(0);
	expect(recent.firstSeen('s', [event('m0')])).toHaveLength(1);
});

it('tells scopes apart: the same event for two trigger nodes is new to each', () => {
	const recent = new RecentEvents(() => 5);
	expect(recent.firstSeen('wf a', [event('m1')])).toHaveLength(1);
	expect(recent.firstSeen('wf b', [event('m1')])).toHaveLength(1);
	expect(recent.firstSeen('wf a', [event('m1', 'READ')])).toHaveLength(1);
});
