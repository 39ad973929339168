import { blacklist } from './blacklist';
import { list } from './list';
import { message } from './message';
import { messageTemplate } from './messageTemplate';
import { sender } from './sender';
import { subscriber } from './subscriber';
import { walletPass } from './walletPass';
import { walletTemplate } from './walletTemplate';

/**
 * The node's resources, each named once: the Resource list, the fields (in this order) and the
 * runs of the node's description and `execute` all come from here.
 */
export const RESOURCES = [
	list,
	subscriber,
	walletPass,
	walletTemplate,
	blacklist,
	sender,
	messageTemplate,
	message,
];
