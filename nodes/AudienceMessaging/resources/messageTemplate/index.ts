/** Message Template: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as getMany } from './getMany';

export const messageTemplate = resourceOf('Message Template', 'messageTemplate', [getMany]);
