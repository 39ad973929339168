/** Message › Send's record of one message: what every stage after an item's reading needs. */
import type { Message } from '../../../../../src/platform';
import type { PublishedMedia } from './binary-media';
import type { QuietPlan } from './quiet-hours';

/**
 * One message of the run, as its item was read and checked: what every later stage needs of it,
 * kept together (the holds before sending, the send itself, its output item).
 */
export interface Outgoing {
	message: Message;
	/** Its Message Key, with Skip Messages Sent Before. */
	key?: string;
	/** Its window and zones, with Quiet Hours. */
	quiet?: QuietPlan;
	/** A binary file, its link signed when the message is sent. */
	file?: PublishedMedia;
}
