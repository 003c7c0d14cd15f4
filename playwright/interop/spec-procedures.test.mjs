// Every procedure of the product spec's section 7 table, sent by the real @trpc/client
// (httpBatchLink + superjson) with exactly the payload the spec gives, to `voicemark serve`
// with the demo seed, signed in as the demo admin. Each must parse: a success, or a refusal
// for lack of data or configuration, never BAD_REQUEST for the spec's own shape.
//
// Procedures the spec names that no issue has built yet are listed in NOT_YET_IMPLEMENTED
// with the issue that will add them; they must answer NOT_FOUND ("No procedure found"), so
// this list fails, and must be updated, the day one of them lands.
//
//   cd playwright && node --test interop/
//
// Uses ../target/debug/voicemark unless VOICEMARK_BIN names another binary (voicemark.mjs).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTRPCUntypedClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import superjson from 'superjson';

import { startVoicemark } from './voicemark.mjs';

/** The demo admin (a leader at Northbridge Academy): every implemented call applies to them. */
const ADMIN = { email: 'admin@northbridge.test', password: 'Voicemark1' };
/** A support address other than the default, to see the configured one come back. */
const SUPPORT_EMAIL = 'help@interop.test';

/** A 1x1 JPEG, base64: "images (a list of jpeg captures)". */
const JPEG_1PX =
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==';

/**
 * Named by the spec (section 7) but not built yet: path -> the issue that adds it. When one
 * lands, its test below fails: move it to the implemented calls with the spec's payload.
 */
const NOT_YET_IMPLEMENTED = {
};

let baseUrl;
let stop = async () => {};
let cookie = '';

/** The `name=value` pairs of a response's Set-Cookie headers, for a Cookie header. */
function cookiesOf(response) {
  return response.headers.getSetCookie().map((line) => line.split(';')[0]);
}

/** Signs in through the Auth.js endpoints the login form uses; returns the Cookie header. */
async function signIn({ email, password }) {
  const csrf = await fetch(`${baseUrl}/api/auth/csrf`);
  const { csrfToken } = await csrf.json();
  const jar = cookiesOf(csrf);
  const answer = await fetch(`${baseUrl}/api/auth/callback/credentials`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: jar.join('; ') },
    body: new URLSearchParams({ email, password, csrfToken, callbackUrl: '/', json: 'true' }),
    redirect: 'manual',
  });
  const { url } = await answer.json();
  assert.doesNotMatch(url ?? '', /error=/, `sign-in of ${email}`);
  return [...jar, ...cookiesOf(answer)].join('; ');
}

before(async () => {
  ({ baseUrl, stop } = await startVoicemark({
    seedDemo: true,
    env: { VOICEMARK_SUPPORT_EMAIL: SUPPORT_EMAIL },
  }));
  cookie = await signIn(ADMIN);
});

after(() => stop());

/** The real client, batching, with the signed-in cookie (or none). */
function client({ signedIn = true } = {}) {
  return createTRPCUntypedClient({
    links: [
      httpBatchLink({
        url: `${baseUrl}/api/trpc`,
        transformer: superjson,
        headers: () => (signedIn ? { cookie } : {}),
      }),
    ],
  });
}

/**
 * Runs `call` and returns its answer, or the tRPC error's data when the server refused it
 * for another reason than the input's shape. A BAD_REQUEST (the input did not parse, or a
 * field was refused) fails the test with the server's message.
 */
async function accepted(path, call) {
  try {
    return { ok: true, value: await call() };
  } catch (err) {
    assert.ok(err instanceof TRPCClientError, `${path}: ${err}`);
    assert.notEqual(err.data?.code, 'BAD_REQUEST', `${path} refused the spec's payload: ${err.message}`);
    assert.notEqual(err.data?.code, 'NOT_FOUND', `${path}: ${err.message}`);
    return { ok: false, code: err.data?.code, message: err.message };
  }
}

test('user.feedbackHubCount (query, no payload) answers a number', async () => {
  const answer = await accepted('user.feedbackHubCount', () => client().query('user.feedbackHubCount'));
  assert.ok(answer.ok);
  assert.equal(typeof answer.value, 'number');
});

test('school.listStudents (query, no payload) answers the students with year and form groups', async () => {
  const answer = await accepted('school.listStudents', () => client().query('school.listStudents'));
  assert.ok(answer.ok);
  assert.ok(Array.isArray(answer.value) && answer.value.length > 0, 'the demo school has pupils');
  for (const key of ['id', 'forename', 'surname', 'yearGroup', 'formGroup']) {
    assert.ok(key in answer.value[0], `a student has ${key}`);
  }
});

test('user.markTutorialComplete (mutation, a true flag) accepts the bare flag and the named one', async () => {
  assert.ok((await accepted('user.markTutorialComplete', () => client().mutation('user.markTutorialComplete', true))).ok);
  assert.ok(
    (await accepted('user.markTutorialComplete', () => client().mutation('user.markTutorialComplete', { complete: true }))).ok,
  );
  // And the input is really read: a false flag is refused.
  await assert.rejects(client().mutation('user.markTutorialComplete', false), (err) => {
    assert.equal(err.data.code, 'BAD_REQUEST');
    return true;
  });
});

test('notification.analyseImage (mutation, images and prompt) parses; without AI it is PRECONDITION_FAILED', async () => {
  const answer = await accepted('notification.analyseImage', () =>
    client().mutation('notification.analyseImage', { images: [JPEG_1PX], prompt: 'What went well?' }),
  );
  // This server has no vision provider: the refusal comes after the input was read.
  assert.equal(answer.ok, false);
  assert.equal(answer.code, 'PRECONDITION_FAILED');
  assert.equal(answer.message, 'AI photo analysis is not switched on for your school yet. Ask your administrator.');
});

test('leader.uploadVoiceNote (mutation, filename and contentType) answers key and url, and the upload completes', async () => {
  const answer = await accepted('leader.uploadVoiceNote', () =>
    client().mutation('leader.uploadVoiceNote', { filename: 'Spec note.m4a', contentType: 'audio/mp4' }),
  );
  assert.ok(answer.ok);
  const { key, url, headers } = answer.value;
  assert.equal(typeof key, 'string');
  assert.equal(typeof url, 'string');

  // "File upload: an HTTP PUT to the returned URL with the file as body and content-type
  // and content-disposition headers". No size was declared: any size up to 50 MB is taken.
  const put = await fetch(new URL(url, baseUrl), { method: 'PUT', headers, body: new Uint8Array(1234) });
  assert.equal(put.status, 200, await put.clone().text());
  assert.equal((await put.json()).size, 1234);

  // leader.transferVoiceNoteToPersonalFolder (mutation, key).
  const moved = await accepted('leader.transferVoiceNoteToPersonalFolder', () =>
    client().mutation('leader.transferVoiceNoteToPersonalFolder', { key }),
  );
  assert.ok(moved.ok);
  const { notes } = await client().query('voiceNote.list');
  const note = notes.find((n) => n.id === moved.value.id);
  assert.ok(note, 'the note is listed');
  assert.equal(note.size, 1234, 'with the size that arrived');
});

test('leader.transferVoiceNoteToPersonalFolder (mutation, key) parses; an unknown key is NOT_FOUND', async () => {
  await assert.rejects(
    client().mutation('leader.transferVoiceNoteToPersonalFolder', { key: 'no/such/key' }),
    (err) => {
      assert.equal(err.data.code, 'NOT_FOUND');
      assert.equal(err.message, 'Voice note not found.');
      return true;
    },
  );
});

test('leader.uploadTaskFile (mutation, filename, contentType, taskId) parses; an unknown task is NOT_FOUND', async () => {
  await assert.rejects(
    client().mutation('leader.uploadTaskFile', { filename: 'Plan.pdf', contentType: 'application/pdf', taskId: 'task-1' }),
    (err) => {
      assert.equal(err.data.code, 'NOT_FOUND');
      assert.equal(err.message, 'Task not found.');
      return true;
    },
  );
});

test('leader.listTaskFiles (query, taskId) parses; an unknown task is NOT_FOUND', async () => {
  await assert.rejects(client().query('leader.listTaskFiles', { taskId: 'task-1' }), (err) => {
    assert.equal(err.data.code, 'NOT_FOUND');
    assert.equal(err.message, 'Task not found.');
    return true;
  });
});

test('user.uploadFile (mutation, filename and contentType) answers an upload URL', async () => {
  const answer = await accepted('user.uploadFile', () =>
    client().mutation('user.uploadFile', { filename: 'Reading list.pdf', contentType: 'application/pdf' }),
  );
  assert.ok(answer.ok);
  assert.equal(typeof answer.value.url, 'string');
  // The spec: the user.uploadFile path adds a tagging header marking the file as expiring
  // (S3 only; the local store deletes it by its row).
  const put = await fetch(new URL(answer.value.url, baseUrl), {
    method: 'PUT',
    headers: answer.value.headers,
    body: '%PDF-1.7 spec',
  });
  assert.equal(put.status, 200, await put.clone().text());
});

test('user.listFiles (query, no payload) lists the uploaded file', async () => {
  const answer = await accepted('user.listFiles', () => client().query('user.listFiles'));
  assert.ok(answer.ok);
  assert.ok(Array.isArray(answer.value));
});

test('user.list (query, no payload) lists the admin among the school\'s users', async () => {
  const answer = await accepted('user.list', () => client().query('user.list'));
  assert.ok(answer.ok);
  // No payload: the first page of the school's users (docs/scaling.md "Paged lists").
  assert.ok(answer.value.total >= answer.value.users.length);
  assert.ok(answer.value.nextCursor === null || typeof answer.value.nextCursor === 'string');
  const me = answer.value.users.find((u) => u.email === ADMIN.email);
  assert.ok(me, 'the admin is listed');
  assert.equal(me.status, 'active');
  assert.ok(me.lastActive instanceof Date, 'last active is a Date');
});

test('leader.getSeatInfo (query, no payload) answers seats, used, pending, available', async () => {
  const answer = await accepted('leader.getSeatInfo', () => client().query('leader.getSeatInfo'));
  assert.ok(answer.ok);
  assert.deepEqual(Object.keys(answer.value).sort(), ['available', 'pending', 'seats', 'used']);
  assert.ok(answer.value.used >= 1);
});

test('submission.getDeepgramKey (mutation, no payload) parses; without speech it is PRECONDITION_FAILED', async () => {
  const answer = await accepted('submission.getDeepgramKey', () => client().mutation('submission.getDeepgramKey'));
  assert.equal(answer.ok, false);
  assert.equal(answer.code, 'PRECONDITION_FAILED');
});

test('leader.createCustomerSession (mutation, no payload) parses; without billing it is PRECONDITION_FAILED', async () => {
  const answer = await accepted('leader.createCustomerSession', () => client().mutation('leader.createCustomerSession'));
  assert.equal(answer.ok, false);
  assert.equal(answer.code, 'PRECONDITION_FAILED');
});

test('system.support answers the configured support address, signed out', async () => {
  const answer = await client({ signedIn: false }).query('system.support');
  assert.deepEqual(answer, { email: SUPPORT_EMAIL });
});

for (const [path, { kind, issue, input }] of Object.entries(NOT_YET_IMPLEMENTED)) {
  test(`${path} is not implemented yet (${issue}): NOT_FOUND`, async () => {
    const call = kind === 'query' ? client().query(path, input) : client().mutation(path, input);
    await assert.rejects(call, (err) => {
      assert.ok(err instanceof TRPCClientError);
      assert.equal(err.data.code, 'NOT_FOUND', `${path}: ${err.message}`);
      assert.equal(err.message, `No procedure found on path "${path}"`);
      return true;
    });
  });
}
