// A free TCP port on loopback for tests: the product's own helper.
export { freePort } from '../../src/hosts/port.ts';
