// What an integrator of the current interface imports: the size benchmark bundles exactly this.
export { createClient } from '@idv-toolkit/client';
