// The routes are read at start without compiling a validator or checking the documents against the JSON
// Schema meta-schema (both took most of the start-up): this checks once per test run what start-up skips.
import { describe, expect, it } from 'vitest';
import { readRoutes, routeFinder } from './spec.js';

describe('routes', () => {
  it('every document passes the meta-schema and every validator compiles', () => {
    const routes = readRoutes(true);
    expect(routes.length).toBeGreaterThan(50);
    for (const route of routes) {
      expect(typeof route.validate.compiled()).toBe('function');
      for (const field of route.jsonTextFields) expect(typeof field.validate.compiled()).toBe('function');
    }
  });

  it('a validator compiled on first use validates and reports its errors like a compiled one', () => {
    const route = readRoutes().find((r) => r.operationId === 'addBlacklistRecord')!;
    expect(route.validate({ companyKey: 'ck_test_x', query: { reason: 'r', documentNumber: 'D1' } })).toBe(true);
    expect(route.validate.errors).toBeNull();
    expect(route.validate({ companyKey: 'ck_test_x', query: 'not an object' })).toBe(false);
    expect(route.validate.errors?.[0]?.instancePath).toBe('/query');
  });
});

describe('routeFinder', () => {
  it('finds the route routes.find would, for every path, method and unknown path', () => {
    const routes = readRoutes();
    const find = routeFinder(routes);
    const paths = [...routes.map((r) => r.path.replace(/\{(\w+)\}/g, 'x-$1')), '/', '/nothing-here', '/begin/', '/external-api/', '//begin'];
    expect(paths.length).toBeGreaterThan(50);
    for (const path of paths) {
      for (const method of ['GET', 'POST', 'PUT', undefined]) {
        expect(find(method, path), `${method} ${path}`).toBe(routes.find((r) => r.method === method && r.match.test(path)));
      }
    }
  });
});
