import { scopeConfig } from './scope.mjs';

export default scopeConfig('scripts', ['scripts/check-breaking.mjs', 'scripts/breaking-gate.mjs']);
