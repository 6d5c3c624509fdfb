import project from '../packages/sandbox/vitest.config';
import { scopeConfig } from './vitest.scope';

export default scopeConfig([['packages/sandbox', project]]);
