import type { INodeProperties } from 'n8n-workflow';

import { listLocator } from '../../shared/descriptions';

export const deleteListFields: INodeProperties[] = [
	listLocator({ show: { resource: ['list'], operation: ['delete'] } }, { routing: { request: { url: '=/lists/{{$value}}' } } }),
];
