import assert from 'node:assert/strict';
import { test } from 'node:test';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { FreshAfterWriteQueryClient } from '../src/api/freshAfterWriteQueryClient.ts';

/**
 * A list whose first read is still on its way when a write lands and invalidates it: the read
 * was answered from before the write. `answerAll()` lets every read waiting finish.
 */
function slowList() {
  const stored = ['first-start token'];
  const waiting: Array<() => void> = [];
  let reads = 0;
  return {
    stored,
    get reads() {
      return reads;
    },
    read: () => {
      reads++;
      const seen = [...stored];
      return new Promise<string[]>((resolve) => waiting.push(() => resolve(seen)));
    },
    answerAll: () => {
      for (const answer of waiting.splice(0)) answer();
    },
  };
}

async function listAfterWrite(client: QueryClient): Promise<{ shown: string[] | undefined; reads: number }> {
  const list = slowList();
  const observer = new QueryObserver(client, { queryKey: ['tokens'], queryFn: list.read, retry: false });
  const unsubscribe = observer.subscribe(() => {});
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(list.reads, 1, 'the first read is on its way');
  list.stored.push('from the browser');
  const invalidated = client.invalidateQueries({ queryKey: ['tokens'] });
  await new Promise((resolve) => setTimeout(resolve, 0));
  list.answerAll();
  await invalidated;
  list.answerAll();
  await new Promise((resolve) => setTimeout(resolve, 0));
  const shown = observer.getCurrentResult().data;
  unsubscribe();
  client.clear();
  return { shown, reads: list.reads };
}

test('a write while a list is first read: the list is read again and shows the write', async () => {
  const { shown, reads } = await listAfterWrite(new FreshAfterWriteQueryClient());
  assert.deepEqual(shown, ['first-start token', 'from the browser']);
  assert.equal(reads, 2);
});

test("TanStack's own client keeps the first read's answer from before the write (why the subclass exists)", async () => {
  const { shown, reads } = await listAfterWrite(new QueryClient());
  assert.deepEqual(shown, ['first-start token']);
  assert.equal(reads, 1);
});

test('a query only fetched once (no component watches it) is not cancelled under its caller', async () => {
  const client = new FreshAfterWriteQueryClient();
  const list = slowList();
  const fetched = client.fetchQuery({ queryKey: ['tokens', 'once'], queryFn: list.read });
  await new Promise((resolve) => setTimeout(resolve, 0));
  await client.invalidateQueries({ queryKey: ['tokens'] });
  list.answerAll();
  assert.deepEqual(await fetched, ['first-start token']);
  client.clear();
});
