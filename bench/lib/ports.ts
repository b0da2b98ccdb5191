// Free loopback ports for benchmark servers: the product's own helper.
export { freePort } from '../../src/hosts/port.ts';
