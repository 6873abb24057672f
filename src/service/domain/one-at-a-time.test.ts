import { expect, it } from 'vitest';
import { OneAtATime } from './one-at-a-time';

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

it('runs the tasks of one key one after another, in order, and other keys alongside', async () => {
  const queue = new OneAtATime();
  const events: string[] = [];
  const task = (name: string) => async () => {
    events.push(`${name} start`);
    await tick();
    events.push(`${name} end`);
    return name;
  };
  const results = await Promise.all([
    queue.run('a', task('a1')),
    queue.run('a', task('a2')),
    queue.run('b', task('b1')),
  ]);
  expect(results).toEqual(['a1', 'a2', 'b1']);
  expect(events.indexOf('a2 start')).toBeGreaterThan(events.indexOf('a1 end'));
  expect(events.indexOf('b1 start')).toBeLessThan(events.indexOf('a1 end'));
  await tick();
  expect(queue.busyKeys).toBe(0);
});

it('goes on with the next task of a key after one fails', async () => {
  const queue = new OneAtATime();
  const failed = queue.run('a', async () => {
    throw new Error('refused');
  });
  const next = queue.run('a', async () => 'next');
  await expect(failed).rejects.toThrow('refused');
  await expect(next).resolves.toBe('next');
});
