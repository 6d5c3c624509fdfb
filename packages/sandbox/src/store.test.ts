import { memoryState } from './state.js';
import { storeContract } from './store-contract.test-helper.js';

storeContract('memory', async (limits) => ({ state: memoryState(limits), close: async () => {} }));
