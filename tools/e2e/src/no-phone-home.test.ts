/**
 * The whole platform calls nothing outside itself: every outgoing HTTP request of this process
 * (node:http, and fetch through undici), from the platform's start to its stop, with a login and
 * a query on the way, goes to one of its own services.
 */
import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import { test } from 'node:test';
import { DEMO_EMAIL, DEMO_PASSWORD } from '@fleetgraph/seed';
import { postGraphQL } from '@fleetgraph/testing';
import { startStack } from './stack';

const LOCAL = new Set(['127.0.0.1', 'localhost']);

test('from start to stop, with a login and a query, every request stays on this machine', async () => {
  const hosts: string[] = [];
  const fromHttp = (message: unknown) => hosts.push((message as { request: ClientRequest }).request.host);
  const fromFetch = (message: unknown) =>
    hosts.push(new URL(String((message as { request: { origin: string | URL } }).request.origin)).hostname);
  subscribe('http.client.request.start', fromHttp);
  subscribe('undici:request:create', fromFetch);
  try {
    const stack = await startStack('e2e_no_phone_home');
    try {
      const token = await stack.login(DEMO_EMAIL, DEMO_PASSWORD);
      const answer = await postGraphQL<{ account: { fullName: string }; devices: { list: unknown[] } }>(
        stack.platform.urls.graphql,
        '{ account { fullName } devices(pageSize: 5) { list { id } } }',
        { token },
      );
      assert.equal(answer.errors, undefined, JSON.stringify(answer.errors));
      assert.equal(answer.data?.devices.list.length, 5);
    } finally {
      await stack.close();
    }
  } finally {
    unsubscribe('http.client.request.start', fromHttp);
    unsubscribe('undici:request:create', fromFetch);
  }
  assert.ok(hosts.length > 0, 'the channels saw the platform’s own requests');
  assert.deepEqual(
    [...new Set(hosts)].filter((host) => !LOCAL.has(host)),
    [],
    'no request left the machine',
  );
});
