/** Wallet Template: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as getMany } from './getMany';

export const walletTemplate = resourceOf('Wallet Template', 'walletTemplate', [getMany]);
