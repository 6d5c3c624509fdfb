export { createSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { companiesFrom, loadCompanies, demoCompanyKey, type Company, type SessionConfig } from './companies.js';
export { manualClock, systemClock, type Clock } from './clock.js';
export { openStore, storeConflict, defaultDataDir, type StoreChoice, type OpenedStore } from './store-choice.js';
export type { Database } from './sql/database.js';
export { batchedLines } from './request-log.js';
