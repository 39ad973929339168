import { resourceOf } from '../../shared/operation';
import { operation as getMany } from './getMany';

/** Message Template: its operations, the first the default. */
export const messageTemplate = resourceOf('Message Template', 'messageTemplate', [getMany]);
