/** Removes the template user folder of global-setup.tsx. */
import { rm } from 'fs/promises';

export default async function globalTeardown(): Promise<void> {
	const root = process.env.AM_E2E_TEMPLATE;
	if (root && process.env.KEEP_N8N_FOLDERS !== '1')
		await rm(root, { recursive: true, force: true, maxRetries: 3 });
}
