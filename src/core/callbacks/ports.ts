// The ports the gateway calls a callback address on. The gateway family's integration documentation
// ("Merchant Callbacks") says callback URLs may use only ports 80 and 8080 for http, 443 and 8443 for
// https: a notify_url on any other port is never called, and its callbacks are lost without a word.
// Loopback addresses are the local gateway's alone (the gateway cannot reach them), so they are exempt.
// No Node import: the rules read this in every face.

import { said, typed, type Said } from '../output/said';

const GATEWAY_PORTS: Readonly<Record<string, readonly number[]>> = { 'http:': [80, 8080], 'https:': [443, 8443] };

function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase();
  return h === 'localhost' || h === 'localhost.' || h === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why the gateway would never call this address back (its port), or undefined when it would (or it is no http(s) URL, or loopback). */
export function callbackPortProblem(text: string): Said | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  const allowed = GATEWAY_PORTS[url.protocol];
  if (allowed === undefined || isLoopbackHost(url.hostname)) return undefined;
  // WHATWG URL drops a port that is the scheme's default: `https://shop.example:443/` has port ''.
  const port = url.port === '' ? allowed[0] : Number(url.port);
  if (allowed.includes(port)) return undefined;
  return said`the gateway never calls back on port ${typed.count(port)}: it calls only ports 80 and 8080 (http), 443 and 8443 (https)`;
}
