import { resourceOf } from '../../shared/operation';
import { operation as getMany } from './getMany';

/** Wallet Template: its operations, the first the default. */
export const walletTemplate = resourceOf('Wallet Template', 'walletTemplate', [getMany]);
