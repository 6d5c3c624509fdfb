import project from '../packages/client/vitest.config';
import { scopeConfig } from './vitest.scope';

export default scopeConfig([['packages/client', project]]);
