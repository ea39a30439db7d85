// A TCP proxy in front of a Redis primary that can hold back what the primary sends its
// replicas, for a failover that loses writes the way a real one does (Jepsen-style): the
// primary acknowledges writes to its clients, they wait here instead of reaching the replica,
// and the primary dies. Everyone (clients, sentinels, the replica) reaches the primary through
// the gate, so the sentinels see one consistent address; a connection is a replica's once it
// sends REPLCONF or PSYNC.
import { connect, createServer, type Socket } from 'node:net';

export interface RedisGate {
  port: number;
  /** From now on, what the primary sends a replica is kept here, not passed on. */
  hold(): void;
  /** Drops what was held, closes every connection, and refuses new ones: the primary is gone. */
  cut(): Promise<void>;
}

export async function startRedisGate(upstreamPort: number): Promise<RedisGate> {
  let holding = false;
  const sockets = new Set<Socket>();
  const server = createServer((downstream) => {
    const upstream = connect(upstreamPort, '127.0.0.1');
    // Small writes at once, as between Redis servers (Nagle would add ~40 ms to each WAIT).
    downstream.setNoDelay(true);
    upstream.setNoDelay(true);
    sockets.add(downstream);
    sockets.add(upstream);
    let replication = false;
    const end = () => {
      downstream.destroy();
      upstream.destroy();
    };
    downstream.on('data', (chunk: Buffer) => {
      if (!replication && /REPLCONF|PSYNC/i.test(chunk.toString('latin1'))) replication = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      // Held: the bytes are never sent, as if still in the primary's buffers when it died.
      if (replication && holding) return;
      downstream.write(chunk);
    });
    for (const socket of [downstream, upstream]) {
      socket.on('error', end);
      socket.on('close', () => {
        sockets.delete(socket);
        end();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  return {
    port,
    hold() {
      holding = true;
    },
    cut: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}
