import project from '../scripts/vitest.config';
import { scopeConfig } from './vitest.scope';

export default scopeConfig([['scripts', project, ['api-compatibility.test.ts']]]);
