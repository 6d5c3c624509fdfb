import { scopeConfig } from './scope.mjs';

export default scopeConfig('types', ['packages/types/scripts/generate.mjs']);
