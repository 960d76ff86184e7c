import net from 'node:net';

// Ports below the ephemeral range (Linux hands out 32768-60999 to outgoing connections, macOS and Windows 49152 and
// up). A port taken from that range is free when probed but can be handed to any outgoing connection of any process
// in the seconds before our server listens on it (a PGlite start takes that long), which made servers fail with
// EADDRINUSE on a busy machine. Below it, only another listener can take the port.
const LOW = 15_000;
const HIGH = 32_000;

function tryListen(port: number, host: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(undefined));
    probe.listen(port, host, () => {
      const { port: bound } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(bound));
    });
  });
}

/** A port that is free on `host` (used before listening, so the base URL is known in advance). */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await tryListen(LOW + Math.floor(Math.random() * (HIGH - LOW)), host);
    if (port !== undefined) return port;
  }
  const port = await tryListen(0, host);
  if (port === undefined) throw new Error(`no free port on ${host}`);
  return port;
}
