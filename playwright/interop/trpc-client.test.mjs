// Interoperability of /api/trpc with the real tRPC client: @trpc/client's httpBatchLink and
// httpLink with the superjson transformer against a running `voicemark serve`.
//
//   cd playwright && node --test interop/
//
// Uses ../target/debug/voicemark unless VOICEMARK_BIN names another binary (voicemark.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTRPCUntypedClient, httpBatchLink, httpLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';

import { startVoicemark } from './voicemark.mjs';

let baseUrl;
let stop = async () => {};

before(async () => {
  ({ baseUrl, stop } = await startVoicemark());
});

after(() => stop());

/** A client whose fetch counts the HTTP requests it makes. */
function client(link = httpBatchLink) {
  const requests = [];
  const trpc = createTRPCUntypedClient({
    links: [
      link({
        url: `${baseUrl}/api/trpc`,
        transformer: superjson,
        fetch: (url, init) => {
          requests.push({ url: String(url), method: init?.method ?? 'GET' });
          return fetch(url, init);
        },
      }),
    ],
  });
  return { trpc, requests };
}

test('system.time returns Dates that superjson restores', async () => {
  const { trpc } = client();
  const sent = new Date('2024-09-01T08:30:00.123Z');
  const answer = await trpc.query('system.time', { clientTime: sent });
  assert.ok(answer.clientTime instanceof Date, 'clientTime is a Date');
  assert.ok(answer.serverTime instanceof Date, 'serverTime is a Date');
  assert.equal(answer.clientTime.getTime(), sent.getTime());
  assert.ok(Math.abs(answer.serverTime.getTime() - Date.now()) < 60_000);
});

test('three parallel queries travel in one HTTP request', async () => {
  const { trpc, requests } = client();
  const dates = [new Date(0), new Date(1_000), new Date(86_400_000)];
  const answers = await Promise.all(dates.map((clientTime) => trpc.query('system.time', { clientTime })));
  assert.equal(requests.length, 1, `one request, got ${JSON.stringify(requests)}`);
  assert.match(requests[0].url, /\/api\/trpc\/system\.time,system\.time,system\.time\?batch=1&input=/);
  assert.deepEqual(answers.map((a) => a.clientTime.getTime()), dates.map((d) => d.getTime()));
});

test('httpLink (no batching) speaks the same protocol', async () => {
  const { trpc, requests } = client(httpLink);
  const answer = await trpc.query('system.time', { clientTime: new Date(5) });
  assert.equal(answer.clientTime.getTime(), 5);
  assert.doesNotMatch(requests[0].url, /batch=1/);
});

test('a signed-out call is UNAUTHORIZED with status 401', async () => {
  const { trpc } = client();
  await assert.rejects(trpc.query('user.feedbackHubCount'), (err) => {
    assert.ok(err instanceof TRPCClientError, 'a TRPCClientError');
    assert.equal(err.data.code, 'UNAUTHORIZED');
    assert.equal(err.data.httpStatus, 401);
    assert.equal(err.data.path, 'user.feedbackHubCount');
    return true;
  });
});

test('an unknown path is NOT_FOUND, next to a success in the same batch', async () => {
  const { trpc, requests } = client();
  const [ok, missing] = await Promise.allSettled([
    trpc.query('system.time', { clientTime: new Date(0) }),
    trpc.query('nope.x'),
  ]);
  assert.equal(requests.length, 1);
  assert.equal(ok.status, 'fulfilled');
  assert.equal(missing.status, 'rejected');
  assert.ok(missing.reason instanceof TRPCClientError);
  assert.equal(missing.reason.data.code, 'NOT_FOUND');
  assert.equal(missing.reason.data.httpStatus, 404);
  assert.equal(missing.reason.message, 'No procedure found on path "nope.x"');
});

test('a mutation is a POST, and field errors arrive as zodError', async () => {
  const { trpc, requests } = client();
  await assert.rejects(
    trpc.mutation('account.register', { forename: ' ', surname: 'S', email: 'a@b.test', password: 'x' }),
    (err) => {
      assert.ok(err instanceof TRPCClientError);
      assert.equal(err.data.code, 'BAD_REQUEST');
      assert.equal(err.message, 'Enter your forename.');
      assert.deepEqual(err.data.zodError.fieldErrors, { forename: ['Enter your forename.'] });
      return true;
    },
  );
  assert.equal(requests[0].method, 'POST');
});
