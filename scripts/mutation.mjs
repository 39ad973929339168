// `npm run test:mutation`: the project's own mutation run. Each mutant is one small, realistic
// change of the shipped code (src/, nodes/) of the kind a hurried edit makes: a check dropped, a
// limit raised, an encoding left out, a pause skipped. For each, the fast jest projects (unit,
// nodes) run against a mutated copy of the repository; the mutant is killed when a test fails.
// Prints each outcome, the score and the survivors. Nothing in the working tree is changed.
//
//   npm run test:mutation [-- --only 3,7] [-- --list] [-- --check: each mutant's text is found]
import { spawnSync, execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

/** [file, the exact text, its replacement, what the mutant does]. Each text must occur once. */
export const MUTANTS = [
	[
		'src/http/retry.ts',
		'return asked + jitter(asked, random);',
		'return asked * 0;',
		'a 429 is resent at once, without waiting for Retry-After',
	],
	[
		'src/http/retry.ts',
		'return asked + jitter(asked, random);',
		'return Math.min(asked, 1000) + jitter(asked, random);',
		'a Retry-After longer than 1 s is cut to 1 s',
	],
	[
		'src/http/attempt.ts',
		'if (statusCode >= 300 && statusCode < 400)\n\t\tthrow redirectError(node, response, attempt.target, request.itemIndex);',
		'if (statusCode >= 300 && statusCode < 300) throw redirectError(node, response, attempt.target, request.itemIndex);',
		'a redirect answer is taken as an answer instead of an error',
	],
	[
		'src/http/api-request.ts',
		'idempotent: IDEMPOTENT.includes(request.method) && !isStreamedBody(request.body),',
		'idempotent: !isStreamedBody(request.body),',
		'a POST is resent after a 5xx (a duplicate message or subscriber)',
	],
	[
		'src/http/attempt.ts',
		'throw apiError(node, response, { ...request, secrets, urlField: attempt.urlField });',
		'throw apiError(node, response, { ...request, secrets: [], urlField: attempt.urlField });',
		'the API key is no longer taken out of an error that echoes it',
	],
	[
		'src/http/pagination.ts',
		'if (signature === previous) {',
		'if (signature === previous && false) {',
		'the repeated-page guard is dead: a platform ignoring "page" loops to the page cap',
	],
	[
		'src/base/chunk.ts',
		'start < items.length;',
		'start <= items.length;',
		'chunk() adds an empty last batch when the item count is a multiple of the batch size',
	],
	[
		'src/pace/pacer.ts',
		'this.pausedUntil = Math.max(this.pausedUntil, Math.min(nextSecond ?? Infinity, now + pauseMs));',
		'',
		'a 429 no longer pauses the whole run (no shared back-off)',
	],
	[
		'src/pace/pacer.ts',
		'return this.rate ? 1000 / this.rate : 0;',
		'return this.rate ? 500 / this.rate : 0;',
		'starts come twice as close: twice the rate in each second',
	],
	[
		'src/pace/gate.ts',
		'if (pacer.backOffs === backOffs && pacer.pausedUntil <= Math.max(start, this.clock.now())) {',
		'if (pacer.pausedUntil <= Math.max(start, this.clock.now())) {',
		'requests already waiting when a 429 comes keep the slots given at the old rate',
	],
	[
		'nodes/AudienceMessaging/resources/message/send/rate-and-quota.ts',
		', shareKey: key });',
		' });',
		"runs of one process at the same sender's rateLimit pace on their own (together twice the limit)",
	],
	[
		'nodes/AudienceMessaging/resources/message/send/hold-and-send.ts',
		'if (this.gate) (await this.gate.catch(() => undefined))?.gate.release();',
		'',
		'a shared pace is never given back (held for ever, stale for later runs)',
	],
	[
		'src/pace/pacer.ts',
		'if (sameEvent) return;',
		'',
		'each 429 of the requests in flight halves the rate again (ten in flight: a thousandth of the rate)',
	],
	[
		'src/pace/pacer.ts',
		'this.floor = Math.max(MIN_RATE, floor ?? 0);',
		'this.floor = MIN_RATE;',
		"a run paced at its sender's rate backs off to a crawl (two runs sharing a sender: 15 % of its limit)",
	],
	[
		'src/pace/pacer.ts',
		'this.probeAt = this.pausedUntil + this.holdMs * (1 + this.random() / 2);',
		'this.probeAt = Infinity;',
		'a backed-off run never probes for more (held at its first measure for good)',
	],
	[
		'src/platform/callbacks.ts',
		"return timingSafeEqual(digest(given ?? ''), digest(expected));",
		"return timingSafeEqual(digest(given ?? ''), digest(given ?? ''));",
		'the trigger accepts any callback token',
	],
	[
		'src/platform/chatapp/message.ts',
		'export const TEXT_MAX = 4096;',
		'export const TEXT_MAX = 40960;',
		'the text length limit raised tenfold',
	],
	[
		'nodes/AudienceMessaging/resources/blacklist/check.ts',
		'acceptStatus: isJsonNotFound,',
		'acceptStatus: (status) => status === 404,',
		'Blacklist Check takes any 404 (a wrong URL too) as "not blacklisted"',
	],
	[
		'nodes/AudienceMessaging/runner/request.ts',
		'path: fillTemplate(request.path, values, encodeURIComponent),',
		'path: fillTemplate(request.path, values),',
		"a described operation's path values (list, subscriber, sender IDs) are not URL-encoded",
	],
	[
		'nodes/AudienceMessaging/resources/walletPass/create/run.ts',
		'/v2/wallet/templates/${encodeURIComponent(serial)}/passes/batch',
		'/v2/wallet/templates/${serial}/passes/batch',
		'the template serial is not URL-encoded',
	],
	[
		'nodes/AudienceMessaging/runner/parameters.ts',
		'const resolve = compileParameter(raw);',
		'const resolve = undefined as ReturnType<typeof compileParameter>;',
		"plain $json references go through n8n's expression engine again (7.4 s instead of 0.11 s for 10,000 passes)",
	],
	[
		'nodes/AudienceMessaging/runner/pool.ts',
		'while (stop.job === undefined && next < count) {',
		'while (next < count) {',
		'after a failure without Continue On Fail the run keeps starting items',
	],
	[
		'nodes/AudienceMessaging/resources/subscriber/addMany/run.ts',
		"const keyColumn = validated(this, 0, labels, () => text(options.keyColumn, 'keyColumn')) || 'id';",
		"const keyColumn = (validated(this, 0, labels, () => text(options.keyColumn, 'keyColumn')), 'id');",
		'the Key Column option is ignored',
	],
	[
		'nodes/AudienceMessaging/resources/list/get.ts',
		'simplify ? simplifyList(',
		'simplify && false ? simplifyList(',
		'Simplify is ignored on List › Get',
	],
	[
		'nodes/AudienceMessaging/resources/messageTemplate/getMany.ts',
		'return limit < items.length ? items.slice(0, limit) : items;',
		'return items;',
		'Message Template › Get Many ignores Limit',
	],
	[
		'src/csv/header.ts',
		'export function assertCsvSize(sizeBytes: number, field: string, limit = CSV_MAX_BYTES): void {',
		'export function assertCsvSize(sizeBytes: number, field: string, limit = CSV_MAX_BYTES * 10): void {',
		'a CSV over 200 MB is uploaded',
	],
	[
		'nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.ts',
		'.filter((event) => !wanted || wanted.has(String(event.status)));',
		'.filter((event) => !wanted || wanted.has(String(event.status)) || true);',
		'the trigger starts the workflow for statuses it should drop',
	],
	[
		'nodes/AudienceMessagingTrigger/AudienceMessagingTrigger.node.ts',
		'const selected = redacted(events, [given])',
		'const selected = redacted(events, [])',
		"the callback token stays in the trigger's items (the platform echoes the callback URL)",
	],
	[
		'src/platform/callback-repeats.ts',
		'if (at !== undefined && at > now - REPEAT_WINDOW_MS) return false;',
		'if (at !== undefined && at > now - REPEAT_WINDOW_MS) return true;',
		'a callback posted again starts the trigger again',
	],
	[
		'nodes/AudienceMessagingTrigger/secret.ts',
		'if (entry && entry.until > now) return entry.secret;',
		'if (entry) return entry.secret;',
		"the trigger keeps a credential's secret for ever: a changed secret never takes effect",
	],
	[
		'nodes/AudienceMessaging/runner/execute.ts',
		'results[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({\n\t\t\t\tjson,\n\t\t\t\tpairedItem: { item: itemIndex },\n\t\t\t}));',
		'results[itemIndex] = (Array.isArray(result) ? result : [result]).map((json) => ({ json, pairedItem: { item: 0 } }));',
		'every output item is paired to input item 0',
	],
	[
		'nodes/AudienceMessaging/runner/execute.ts',
		'if (item) results[itemIndex] = [item];',
		'if (item) results[itemIndex] = [];',
		'with Continue On Fail, an item whose request failed yields no output item',
	],
	[
		'src/pace/pace.ts',
		'export const RATE_HEADROOM = 0.95;',
		'export const RATE_HEADROOM = 1.5;',
		"runs pace above the rate they are given (the sender's rate limit, Messages per Second)",
	],
	[
		'src/http/pagination.ts',
		'if (page > maxPages) {',
		'if (page > maxPages * 1000) {',
		'Return All has no page cap: an endless paging platform runs the node forever',
	],
	[
		'src/platform/wallet/mapping.ts',
		'if (!result.trim()) throw new InputError(field, `the input item\'s field "${name}" is empty`);',
		'',
		'Wallet Pass from input item fields sends an empty field value',
	],
	[
		'nodes/AudienceMessaging/resources/walletPass/create/fields.ts',
		'export const MAX_PASS_BATCH_SIZE = 10_000;',
		'export const MAX_PASS_BATCH_SIZE = 100_000;',
		'a wallet pass batch above what the node allows is accepted',
	],
	[
		'nodes/AudienceMessaging/runner/labels.ts',
		"if (!paths[0].path.includes('.') && !byOwnName.has(option.name))",
		"if (!paths[0].path.includes('.') && byOwnName.has(option.name))",
		'an option is no longer found by its own name: "Options › Batch Size" is named "batchSize"',
	],
	[
		'nodes/AudienceMessaging/runner/item-errors.ts',
		'return context.continueOnFail() || runsAsTool(context.getNode());',
		'return context.continueOnFail();',
		"as a tool, a failed call throws again (n8n's AI Agent hands the model an empty answer)",
	],
	[
		'nodes/AudienceMessaging/runner/tool.ts',
		'const keys = found ? fromAiKeys(node.parameters[found.parameter]) : [];',
		'const keys: string[] = [];',
		'as a tool, a bad argument is named as a workflow setting, not by its $fromAI() name',
	],
	[
		'src/http/preview.ts',
		"return method === 'GET' || method === 'HEAD';",
		"return method !== 'POST';",
		'a preview still sends DELETE requests (List › Delete deletes the list)',
	],
	[
		'nodes/AudienceMessaging/runner/items.ts',
		"bodyPath: `${rowsAt ?? ''}[${position}]`,\n\t\t\t\tbodyPart: Array.isArray(rows) ? (rows[position] as IDataObject) : undefined",
		"bodyPath: `${rowsAt ?? ''}[${position}]`, bodyPart: Array.isArray(rows) ? (rows[0] as IDataObject) : undefined",
		"a batch preview shows every item the batch's first row",
	],
	[
		'src/http/preview.ts',
		"if (pairs.length) url += `${url.includes('?') ? '&' : '?'}${pairs.join('&')}`;",
		'',
		"a preview's URL leaves out the query string (List › Create From CSV's name and options)",
	],
	[
		'src/csv/repeats.ts',
		'if (first[firstAt] === a && first[firstAt + 1] === b) {',
		'if (first[firstAt] === a && first[firstAt + 1] === b && false) {',
		'the CSV check no longer finds a repeated e-mail, mobile or key',
	],
	[
		'src/csv/scan.ts',
		'while (this.nextBreak !== -1 && this.nextBreak < close) {\n\t\t\t\t\tlines++;',
		'while (this.nextBreak !== -1 && this.nextBreak < close) {\n',
		'the CSV check counts rows as lines: every problem after a quoted line break names the wrong line',
	],
	[
		'nodes/AudienceMessaging/runner/csv-upload.ts',
		"policy.onProblems === 'refuse'\n\t\t\t\t? 'Fix the file,",
		"policy.onProblems === 'refuse' && false\n\t\t\t\t? 'Fix the file,",
		'a CSV file with problems is uploaded although the option says Refuse the File',
	],
	[
		'src/csv/check.ts',
		'withoutBadRows: withBadRows - sizes.totalOf(badRows)',
		'withoutBadRows: withBadRows',
		'Leave Out the Bad Rows declares the size of the whole file (the upload is cut short or hangs)',
	],
	[
		'src/pace/platform-seconds.ts',
		'(second + 1) * 1000 - this.lo : undefined',
		'(second + 1) * 1000 - this.hi : undefined',
		"once the limit per platform second is known, a refused run starts again before the platform's full second ends",
	],
	[
		'src/pace/gate.ts',
		'return Math.max(\n\t\t\t0,\n\t\t\tresendAt - Math.max(this.clock.now(), this.pausesRequestOnly ? 0 : this.pacer.pausedUntil),\n\t\t);',
		'return 0;',
		"a refused request is sent again before its Retry-After when the run resumes at the platform's next second",
	],
	[
		'src/pace/platform-seconds.ts',
		'const agrees =\n\t\t\tcount !== undefined && previous !== undefined && Math.abs(count - previous) <= SAME_COUNT;',
		'const agrees = count !== undefined;',
		"one refusal's count in its platform second is taken as the limit (a sliding window's run held below it)",
	],
	[
		'nodes/AudienceMessaging/resources/message/send/hold-and-send.ts',
		'const body = link ? { ...message, body: link.url } : message;',
		'const body = message;',
		"a binary file's message is sent without the link signed for it",
	],
	[
		'nodes/AudienceMessaging/resources/message/send/hold-and-send.ts',
		'...(link ? [link.token] : []),',
		'',
		"a binary file link's token shows in a preview and in errors that echo the body",
	],
	[
		'nodes/AudienceMessaging/resources/message/send/binary-media.ts',
		'if (binary.id && !TEMP_FILE.test(binary.id)) return binary;',
		'if (binary.id) return binary;',
		"a trigger's upload is linked where n8n moves it from when the execution ends: the link answers 404",
	],
	[
		'src/csv/piece-index.ts',
		'bits.fill(0, 0, words + 1);',
		'',
		"the CSV scan takes the bytes an earlier, longer piece left after a shorter one's end for its delimiters, quotes and line breaks",
	],
	[
		'src/csv/scan.ts',
		'if (word === endWord) marks &= ~(-1 << (rowEnd & 31));',
		'',
		'a row without quotes takes the delimiters after its end, in the same 32 bytes, for its own: wrong field counts and values',
	],
	[
		'src/history/row.ts',
		'const run = (turns.get(this.row) ?? Promise.resolve()).then(task);',
		'const run = task();',
		"overlapping executions of a node call n8n's store at once: one's write drops the other's records",
	],
	[
		'src/history/row.ts',
		'for (let round = 0; round < CHECKS; round++) {',
		'for (let round = 0; round < 0; round++) {',
		"a record another process's write dropped is not written back: a message in flight is forgotten",
	],
	[
		'src/history/sent-history.ts',
		'await this.row.rewrite(known.filter((key) => !attempted.has(attemptOf(key))).map(claimOf));',
		'',
		'a message first given in an earlier run keeps its old claim: n8n forgets it before the bound',
	],
	[
		'src/history/values.ts',
		'[claimOf(key), attemptOf(key), confirmationOf(key)];',
		'[confirmationOf(key)];',
		"a sent message's claim or attempt that another process dropped stays lost: the next run sends it again",
	],
	[
		'src/history/row.ts',
		'if ((await mark()).processed.includes(marker)) return false;',
		'',
		"Forget Messages Sent Before forgets at every run given the label: n8n's Retry sends everything again",
	],
	[
		'src/http/failures.ts',
		'export const MAYBE_APPLIED_STATUSES = [500, 502, 503, 504];',
		'export const MAYBE_APPLIED_STATUSES = [502, 503, 504];',
		'an HTTP 500 on a message counts as refused: the next run sends it again',
	],
	[
		'src/history/row.ts',
		'for (let round = 0; round < CHECKS && values.length > 0; round++) {',
		'for (let round = 0; round < 0 && values.length > 0; round++) {',
		"a run's records dropped by another worker's write after its own checks are not written back at its end",
	],
	[
		'src/pace/pacer.ts',
		'return Math.max(now, caughtUp, this.starts.latest(1) + 500 / this.rate);',
		'return now;',
		'slots missed while n8n was busy all start at once: a sliding one-second limit answers 429',
	],
	[
		'src/pace/pacer.ts',
		'return Math.max(now, caughtUp, this.starts.latest(1) + 500 / this.rate);',
		'return Math.max(now, caughtUp);',
		'late starts catch up in pairs a millisecond apart, the pair again every second: a 429 on jitter',
	],
	[
		'src/quiet/window.ts',
		'return DateTime.fromMillis(at, { zone: this.zone });',
		"return DateTime.fromMillis(at, { zone: 'UTC' });",
		"quiet hours read on the server's UTC clock, not in the recipient's time zone",
	],
	[
		'src/quiet/window.ts',
		'const closesOn = window.until > window.from ? date : date.plus({ days: 1 });',
		'const closesOn = date;',
		'a window across midnight (22:00 to 06:00) is never open',
	],
	[
		'src/quiet/zones.ts',
		'zones = PREFIX_ZONES.get(start) ?? zones;',
		'zones ??= PREFIX_ZONES.get(start);',
		"the shortest known prefix wins: a New York number waits for every zone of +1's",
	],
	[
		'src/quiet/zones.ts',
		'if (zones && (zones.length === 1 || isWhole(zones))) return zones;',
		'if (zones) return zones;',
		"a prefix of several zones is not kept to the number's country: a US toll-free number waits for Guam",
	],
	[
		'src/quiet/zones.ts',
		'return kept === 0 || kept === clocks.length;',
		'return true;',
		"every prefix's zones count as one country's: +1's 42 are not kept to the US's",
	],
	[
		'nodes/AudienceMessaging/resources/message/send/quiet-hours.ts',
		'let plan = plans?.get(zones);',
		'let plan = plans?.values().next().value;',
		"items of one window share the first item's zones: a New York number sent in Paris's daytime",
	],
	[
		'src/pace/turn-grant.ts',
		'Math.max(ASK_TIMEOUT_MS, SLOW_ANSWER_MARGIN * slowestAnswerMs),',
		'ASK_TIMEOUT_MS,',
		"a busy trigger's slow answers time out at 5 s: the run gives sharing up and paces alone",
	],
	[
		'src/pace/shared-turns.ts',
		'const runs = this.clock.now() - this.heardAt <= PEER_TTL_MS ? this.runs : undefined;',
		'const runs = this.runs;',
		'a run that never heard the trigger paces alone at the whole rate, beside runs taking its turns',
	],
	[
		'src/pace/turn-grant.ts',
		'allowedMs * 2 ** attempt,',
		'allowedMs,',
		'a trigger slower than 5 s from the start is never heard: every run paces alone at the whole rate',
	],
	[
		'src/pace/gate.ts',
		'this.pacer.capAt(share.perSecond);',
		'void share;',
		"a run that gives sharing up paces alone at the sender's whole rate, above its share",
	],
	[
		'src/pace/turn-grant.ts',
		'const from = agrees && grant.at + last >= received - spacingMs ? grant.at : received;',
		'const from = received;',
		"turns are timed from the answer's arrival: one slow on its way back puts them among other runs' turns",
	],
	[
		'src/pace/shared-turns.ts',
		'? { afterMs: Math.min(MAX_AFTER_MS, Math.max(...this.waysBack)) }',
		'? {}',
		'a run asks for turns from now, however long its answers take back (gone when they come)',
	],
	[
		'src/pace/board.ts',
		'const first = Math.max(now + (request.afterMs ?? 0), sender.next);',
		'const first = Math.max(now, sender.next);',
		'the board gives turns sooner than the run asked (afterMs ignored)',
	],
	[
		'src/pace/shared-turns.ts',
		'const runs = this.clock.now() - this.heardAt <= PEER_TTL_MS ? this.runs : undefined;',
		'const runs = this.grants > 0 ? this.runs : undefined;',
		'a run that lost the trigger long ago keeps to the share it last heard of (others may have come since)',
	],
	[
		'src/pace/pacer.ts',
		'const slots = Math.ceil(this.rate - 1e-9);',
		'const slots = Math.max(1, Math.floor(this.rate + 1e-9));',
		'a run catching up alone lets one start more than its rate into a second (9 at 7.6/s)',
	],
	[
		'src/pace/shared-turns.ts',
		'this.clock.now() - at > LATE_MS',
		'this.clock.now() - at > Infinity',
		'requests woken late from their shared turns (a busy worker) all go at once',
	],
	[
		'src/pace/shared-turns.ts',
		'if (!late && at > now',
		'if (at > now',
		'a worker always late never sends: each request lets every turn go',
	],
	[
		'src/history/sent-history.ts',
		'const attempted = await this.row.probe(known.map(attemptOf));',
		'const attempted = await this.row.record(known.map(attemptOf), true);',
		'the lookup leaves the attempts it asked in the history: a message the run holds or does not reach comes out unknown after n8n is killed',
	],
	[
		'src/history/sent-history.ts',
		'if (this.mark) await this.row.rewrite([this.mark]);',
		'',
		"Forget's mark is not renewed at the run's end: a fixed label forgets again once later messages push it out",
	],
	[
		'src/history/sent-history.ts',
		'if (this.inProcess.elsewhere(key)) this.claims.set',
		'if (this.inProcess.elsewhere(key) && false) this.claims.set',
		'Resend Unconfirmed sends a message another live execution of this process has in flight: twice',
	],
	[
		'src/http/api-request.ts',
		'request.beforeEachTry?.();',
		'',
		"the caller's last check before each try is skipped: a message whose Quiet Hours closed during a 429's pause is sent late",
	],
	[
		'src/http/attempt.ts',
		'const body = redacted(response.body, secrets, false);',
		'const body = response.body;',
		'a 2xx answer echoing the API key or the callback token becomes an output item as it is',
	],
	[
		'src/base/input-errors.ts',
		"const cut = value.length > 100 ? ` (${value.length} characters)` : '';",
		"const cut = '';",
		'a bad value is quoted whole in its error (a 1 MB time zone fills the message)',
	],
	[
		'src/platform/callbacks.ts',
		'if (nestsDeeper(parsed, CALLBACK_MAX_DEPTH))',
		'if (nestsDeeper(parsed, Infinity))',
		'a callback body nested 40,000 levels deep is taken: n8n answers 500 (RangeError)',
	],
	[
		'src/base/secrets.ts',
		'if (!bearers && !hidden.some((secret) => text.includes(secret))) return value;',
		'if (!bearers) return value;',
		'an answer or error quoting the key without "Bearer" is returned unredacted',
	],
	[
		'src/pace/board.ts',
		'const free = Math.max(1 - kept, 1 / SENDER_SHARERS);',
		'const free = 1;',
		'the trigger gives a run gone silent (pacing alone) its share again: the runs still sharing take the whole rate beside it',
	],
	[
		'src/pace/gate.ts',
		'this.pacer.nextStart = Math.max(this.pacer.nextStart, share.from);',
		'',
		'a run that gives sharing up sends alone at once, while the others hold turns given before the trigger kept its share',
	],
	[
		'nodes/AudienceMessagingTrigger/fields.ts',
		"displayOptions: { show: { '@version': [1] } },",
		'',
		'a trigger of type version 2 asks n8n for its body unread: n8n evaluates an expression at every callback',
	],
	[
		'nodes/AudienceMessaging/resources/message/send/outgoing.ts',
		"if (triggerUse(get('sendToTrigger', itemIndex, false)) !== 'events') return undefined;",
		"if (!triggerUse(get('sendToTrigger', itemIndex, false))) return undefined;",
		"No, Only Share Pace Through It sends the messages' status events to the trigger all the same",
	],
];

const args = process.argv.slice(2);
const onlyArg = args.find((arg) => arg.startsWith('--only'));
const only = onlyArg
	? new Set(
			(onlyArg.includes('=') ? onlyArg.split('=')[1] : args[args.indexOf(onlyArg) + 1])
				.split(',')
				.map(Number),
		)
	: undefined;
if (args.includes('--list')) {
	MUTANTS.forEach(([file, , , what], i) => console.log(`${i + 1}. ${file}: ${what}`));
	process.exit(0);
}

// Every mutant's text must still be in its file once, checked before the first test run: a
// mutant left behind by a change of its file stops the run at once, not hours into it.
const stale = MUTANTS.flatMap(([file, from], index) =>
	readFileSync(join(root, file), 'utf8').split(from).length === 2
		? []
		: [`mutant ${index + 1}: the text to change must occur exactly once in ${file}: ${from}`],
);
if (stale.length) {
	console.error(stale.join('\n'));
	process.exit(1);
}
// --check: only that (npm test runs it, so a change that moves a mutant's text says so at once).
if (args.includes('--check')) {
	console.log(`${MUTANTS.length} mutants, each text found once in its file`);
	process.exit(0);
}

// A copy of the tracked files (the working tree stays as it is), sharing node_modules.
const work = mkdtempSync(join(tmpdir(), 'am-mutation-'));
const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
	.split('\0')
	.filter(Boolean);
for (const file of tracked) cpSync(join(root, file), join(work, file), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(work, 'node_modules'), 'dir');
// A repository of its own, as a clone is: some tests read the tracked files with git. The
// node_modules link is no folder, so .gitignore's "node_modules/" misses it: excluded by name.
execFileSync('git', ['init', '-q'], { cwd: work });
writeFileSync(join(work, '.git', 'info', 'exclude'), 'node_modules\n');
for (const args of [
	['add', '-A'],
	[
		'-c',
		'user.name=mutation',
		'-c',
		'user.email=mutation@example.invalid',
		'commit',
		'-qm',
		'copy',
		'--no-gpg-sign',
	],
])
	execFileSync('git', args, { cwd: work });
const cleanup = () => rmSync(work, { recursive: true, force: true });
process.on('SIGINT', () => {
	cleanup();
	process.exit(130);
});

const jest = join(root, 'node_modules/jest/bin/jest.js');
// The release tooling's test is left out: it needs a clean repository, which a mutant is not,
// and it tests scripts/, not the shipped code.
const runTests = (paths = []) =>
	spawnSync(
		process.execPath,
		[
			jest,
			'--ci',
			'--silent',
			'--bail',
			'--selectProjects',
			'unit',
			'nodes',
			'--testPathIgnorePatterns',
			'/node_modules/',
			'release\\.test\\.tsx$',
			// It checks this list against the unmutated files: any mutant fails it.
			'mutation-config\\.test\\.tsx$',
			...(paths.length ? ['--runTestsByPath', ...paths] : []),
		],
		// A failure may print a lot (a mutant quoting a 1 MB value): past maxBuffer, Node would end
		// jest with SIGTERM and the mutant would get no verdict.
		{
			cwd: work,
			encoding: 'utf8',
			env: { ...process.env, FORCE_COLOR: '0' },
			maxBuffer: 512 * 1024 * 1024,
		},
	);

// The unit and nodes test files, and their texts: a mutant's own tests are tried first.
const testFiles = tracked
	.filter((file) => /^test\/(unit|nodes)\/.*\.test\.tsx$/.test(file))
	.filter((file) => !/(release|mutation-config|runner)\.test\.tsx$/.test(file))
	.map((file) => ({ file, text: readFileSync(join(root, file), 'utf8') }));
/**
 * The tests most likely to kill a mutant of `file`, for a quick first run: those importing it by
 * name (`…/scan'`), the unit tests of its folder, and the node tests named after its resource or
 * operation (test/nodes/send-pacing for resources/message/send/…).
 */
const ownTests = (file) => {
	const stem = file.replace(/^.*\//, '').replace(/\.ts$/, '');
	const folder = `test/unit/${file.replace(/[^/]*$/, '')}`;
	const words = file
		.toLowerCase()
		.replace(/\.ts$/, '')
		.split(/[/.-]/)
		.filter((word) => !['nodes', 'src', 'audiencemessaging', 'resources', 'runner'].includes(word));
	const named = (test) => {
		const first = /^test\/nodes\/([a-z]+)/.exec(test)?.[1];
		return !!first && words.some((word) => word.startsWith(first) || first.startsWith(word));
	};
	return testFiles
		.filter(
			({ file: test, text }) =>
				text.includes(`/${stem}'`) ||
				text.includes(`/${stem}/`) ||
				test.replace(/[^/]*$/, '') === folder ||
				named(test),
		)
		.map(({ file: test }) => test);
};
/** The mutant's own tests, then, when they all pass, every test: the same verdict, found sooner. */
const testMutant = (file) => {
	const own = ownTests(file);
	const first = own.length ? runTests(own) : undefined;
	return first && first.status !== 0 ? first : runTests();
};

const baseline = runTests();
if (baseline.status !== 0) {
	console.error(
		`mutation: the unmutated tests fail; fix them first.\n${baseline.stdout}\n${baseline.stderr}`,
	);
	cleanup();
	process.exit(1);
}

const survivors = [];
const invalid = [];
let killed = 0;
let ran = 0;
MUTANTS.forEach(([file, from, to, what], index) => {
	const number = index + 1;
	if (only && !only.has(number)) return;
	const path = join(work, file);
	const original = readFileSync(path, 'utf8');
	if (original.split(from).length !== 2)
		throw new Error(
			`mutant ${number}: the text to change must occur exactly once in ${file}: ${from}`,
		);
	writeFileSync(
		path,
		original.replace(from, () => to),
	);
	const started = Date.now();
	const result = testMutant(file);
	writeFileSync(path, original);
	if (result.signal) {
		// Stopped from outside (Ctrl-C reaches jest too): no verdict, for this mutant or the rest.
		console.log(`stopped  ${number}. ${what}: the tests ended on ${result.signal}, no verdict`);
		cleanup();
		process.exit(130);
	}
	const seconds = ((Date.now() - started) / 1000).toFixed(0);
	if (result.status !== 0 && /Test suite failed to run/.test(`${result.stderr}${result.stdout}`)) {
		// A mutant that does not compile says nothing about the tests: the list must be fixed.
		invalid.push(`${number}. ${what} (${file})`);
		console.log(`INVALID  ${number}. ${what} (${file}): the mutated code does not compile or load`);
	} else if (result.status !== 0) {
		killed++;
		ran++;
		const failed =
			/● (.+)/.exec(`${result.stderr}\n${result.stdout}`)?.[1]?.trim() ?? 'a test failed';
		console.log(`killed   ${number}. ${what} (${file}; ${seconds} s) by: ${failed}`);
	} else {
		ran++;
		survivors.push(`${number}. ${what} (${file})`);
		console.log(`SURVIVED ${number}. ${what} (${file}; ${seconds} s)`);
	}
});
cleanup();
console.log(
	`\nMUTATION SCORE: ${killed}/${ran} killed (${ran ? Math.round((killed / ran) * 100) : 0} %)`,
);
if (survivors.length) console.log(`Survivors:\n${survivors.map((s) => `  ${s}`).join('\n')}`);
if (invalid.length) {
	console.log(
		`Invalid mutants (not counted; fix the list):\n${invalid.map((s) => `  ${s}`).join('\n')}`,
	);
	process.exitCode = 1;
}
