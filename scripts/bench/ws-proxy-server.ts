// Child process of bench-api and bench-load: the WebSocket-to-TCP proxy (Neon's wsproxy stand-in), off the load
// generator's event loop.
import { startWsProxy } from '../../tests/support/ws-proxy.ts';

const proxy = await startWsProxy();
console.log(`LISTENING ${proxy.address}`);
