import { BlockList, isIP } from 'node:net';

/** 127.0.0.0/8 and ::1; IPv4-mapped IPv6 addresses (::ffff:127.x.x.x) are checked as IPv4. */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** Whether an IP address (not a name) is a loopback address. */
export function isLoopbackAddress(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}
