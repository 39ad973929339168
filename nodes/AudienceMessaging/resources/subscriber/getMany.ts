import type { INodeProperties } from 'n8n-workflow';

import { listLocator, returnAllAndLimit } from '../../shared/descriptions';

const show = { resource: ['subscriber'], operation: ['getMany'] };

export const getManySubscribersFields: INodeProperties[] = [
	listLocator({ show }, { routing: { request: { url: '=/lists/{{$value}}/subscribers' } } }),
	...returnAllAndLimit(show),
];
