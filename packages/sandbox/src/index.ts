export { createSandbox, type Sandbox, type SandboxOptions } from './server.js';
export { companiesFrom, loadCompanies, demoCompanyKey, type Company, type SessionConfig } from './companies.js';
export { manualClock, systemClock, type Clock } from './clock.js';
