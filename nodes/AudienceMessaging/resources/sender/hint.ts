/** A sender output with a hint on what its state means for the user. */
import type { IDataObject } from 'n8n-workflow';

const APPROVAL_HINT =
	'The sender is PENDING_IMPLEMENTATION: the chat-app provider verifies every value and approval usually takes about 48 hours. Messages can be sent once its state is ACTIVE (check it with Sender > Get).';
const NAMESPACE_HINT =
	'templateNamespace is empty: if message templates were created in the platform UI for this sender, contact support so they assign the namespace.';

export function senderWithHint(sender: IDataObject, operation: 'create' | 'get'): IDataObject {
	const hints: string[] = [];
	if (sender.state === 'PENDING_IMPLEMENTATION') hints.push(APPROVAL_HINT);
	if (
		operation === 'get' &&
		(sender.templateNamespace === null || sender.templateNamespace === undefined)
	)
		hints.push(NAMESPACE_HINT);
	return { ...sender, ...(hints.length ? { hint: hints.join(' ') } : {}) };
}
