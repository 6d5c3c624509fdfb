import project from '../packages/types/vitest.config';
import { scopeConfig } from './vitest.scope';

export default scopeConfig([['packages/types', project]]);
