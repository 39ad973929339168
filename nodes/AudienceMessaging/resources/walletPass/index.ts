/** Wallet Pass: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as create } from './create';

export const walletPass = resourceOf('Wallet Pass', 'walletPass', [create]);
