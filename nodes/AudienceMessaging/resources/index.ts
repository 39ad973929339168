/** The node's resources, named once: its Resource list, fields (in this order) and runs. */
import { blacklist } from './blacklist';
import { list } from './list';
import { message } from './message';
import { messageTemplate } from './messageTemplate';
import { sender } from './sender';
import { subscriber } from './subscriber';
import { walletPass } from './walletPass';
import { walletTemplate } from './walletTemplate';

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
