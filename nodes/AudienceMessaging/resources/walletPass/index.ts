import { resourceOf } from '../../shared/operation';
import { operation as create } from './create';

/** Wallet Pass: its operations, the first the default. */
export const walletPass = resourceOf('Wallet Pass', 'walletPass', [create]);
