import type { INodeProperties } from 'n8n-workflow';

import { listLocator } from '../../shared/descriptions';

export const getListFields: INodeProperties[] = [
	listLocator({ show: { resource: ['list'], operation: ['get'] } }, { routing: { request: { url: '=/lists/{{$value}}' } } }),
];
