import type { IncomingHttpHeaders } from 'node:http';
import { verifyCallback } from '../../src/client/tickwheel-client.js';
import { type CallbackHit, startCallbackReceiver } from './callback-receiver.js';

/** One callback a {@link CallbackSink} received: its verdict, path, delivery id and parsed body. */
export interface ReceivedCallback {
  path: string;
  deliveryId: string;
  valid: boolean;
  body: Record<string, unknown>;
  headers: IncomingHttpHeaders;
  at: number;
}

/** A loopback callback receiver for tests: verifies signatures with `secrets` (by app) and records every call. */
export interface CallbackSink {
  /** The base URL (no path): tests add their own paths to tell the rules apart. */
  url: string;
  received: ReceivedCallback[];
  /** Secrets to verify with; a delivery no secret verifies is recorded `valid: false` and answered 401. */
  secrets: string[];
  close(): Promise<void>;
}

/** Starts a sink on 127.0.0.1 (free port): {@link startCallbackReceiver} with each hit checked and parsed. */
export async function startCallbackSink(): Promise<CallbackSink> {
  const received: ReceivedCallback[] = [];
  const secrets: string[] = [];
  const valid = (hit: CallbackHit) => secrets.some((s) => verifyCallback(hit.headers, hit.body, s).ok);
  const receiver = await startCallbackReceiver((_nth, _id, hit) => {
    const ok = valid(hit);
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(hit.body) as Record<string, unknown>;
    } catch {
      /* recorded as received */
    }
    received.push({ path: hit.path, deliveryId: hit.deliveryId, valid: ok, body, headers: hit.headers, at: hit.at });
    return { status: ok ? 200 : 401 };
  });
  return { url: new URL(receiver.url).origin, received, secrets, close: receiver.close };
}
