/** List: its operations, the first the default. */
import { resourceOf } from '../../runner/operation';
import { operation as create } from './create';
import { operation as createFromCsv } from './createFromCsv';
import { operation as deleteList } from './delete';
import { operation as get } from './get';

export const list = resourceOf('List', 'list', [create, createFromCsv, get, deleteList]);
