import { storeProject } from './vitest.store-project.js';

export default storeProject('pglite');
