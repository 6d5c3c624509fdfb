import { scopeConfig } from './scope.mjs';

export default scopeConfig('types', ['packages/types/scripts/generate.mjs', 'packages/types/scripts/tables.mjs', 'packages/types/scripts/drift.mjs']);
