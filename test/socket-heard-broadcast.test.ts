/**
 * Live events nobody here can hear are not encoded (server/api/live/heard-broadcast.ts): a real
 * socket.io server with the adapter and a real client in one room; the server's encoder counts
 * what it serializes.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Server } from 'socket.io';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeardAdapter } from '../server/api/live/heard-broadcast.ts';

describe('broadcasts on the heard adapter', () => {
  const server = http.createServer();
  const io = new Server(server, { adapter: HeardAdapter as never });
  let client: Socket;
  let encoded = 0;

  beforeAll(async () => {
    const encode = io.encoder.encode.bind(io.encoder);
    io.encoder.encode = (packet) => {
      encoded++;
      return encode(packet);
    };
    io.on('connection', (socket) => void socket.join('proc:heard'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, { transports: ['websocket'], reconnection: false });
    await new Promise<void>((resolve, reject) => {
      client.once('connect', () => resolve());
      client.once('connect_error', reject);
    });
  });
  afterAll(async () => {
    client?.close();
    await io.close();
  });

  it('encodes a broadcast only when a socket here is in one of its rooms, and delivers it', async () => {
    encoded = 0;
    io.to('proc:nobody').emit('task', { n: 1 });
    io.to(['proc:nobody', 'model:nobody']).emit('task', { n: 2 });
    expect(encoded).toBe(0);
    const heard = new Promise((resolve) => client.once('task', resolve));
    io.to(['proc:nobody', 'proc:heard']).emit('task', { n: 3 });
    expect(await heard).toEqual({ n: 3 });
    expect(encoded).toBe(1);
    io.emit('health', { ok: true });
    expect(encoded).toBe(2);
  });
});
