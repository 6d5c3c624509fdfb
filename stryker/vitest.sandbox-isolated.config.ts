import base from './vitest.sandbox.config';

// The sandbox's mutation configuration with each test file isolated (its modules loaded afresh): the only
// way a mutant of module-level code (a table, a default, data built at load) is ever switched on. Slower
// per mutant, so it is for files whose survivors are mostly such static mutants (docs/testing.md).
export default { ...base, test: { ...base.test, projects: base.test!.projects!.map((project: any) => ({ ...project, test: { ...project.test, isolate: true } })) } };
