// The project's globalSetup must end what it started: a teardown that never resolves kept the whole
// `npm test` from exiting (vitest awaits each project's teardown in turn, so the mocks of the contract
// project were never stopped either).
import { connect } from 'node:net';
import type { TestProject } from 'vitest/node';
import { expect, it } from 'vitest';
import setup from './redis-server.test-helper.js';

const reachable = (url: string) =>
  new Promise<boolean>((resolve) => {
    const { hostname, port } = new URL(url);
    const socket = connect(Number(port), hostname);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });

const processHandles = () => process.getActiveResourcesInfo().filter((name) => name === 'ProcessWrap').length;

it('starts a redis-server, and its teardown resolves with the server gone and no process handle left', async () => {
  const before = processHandles();
  let redisUrl = '';
  const project = { provide: (_key: string, value: string) => (redisUrl = value) } as unknown as TestProject;
  const teardown = await setup(project);
  expect(await reachable(redisUrl)).toBe(true);
  expect(processHandles()).toBe(before + 1);

  const outcome = await Promise.race([teardown().then(() => 'ended'), new Promise((resolve) => setTimeout(resolve, 10_000, 'still waiting'))]);
  expect(outcome).toBe('ended');
  expect(await reachable(redisUrl)).toBe(false);
  expect(processHandles()).toBe(before);
});
