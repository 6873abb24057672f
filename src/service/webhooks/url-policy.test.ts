import { describe, expect, it } from 'vitest';
import { isPublicAddress, refuseAddress, refuseWebhookUrl } from './url-policy';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('isPublicAddress', () => {
  it.each([
    '0.0.0.0',
    '0.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '100.64.0.1',
    '100.127.255.254',
    '127.0.0.1',
    '127.255.0.9',
    '169.254.169.254',
    '172.16.0.1',
    '172.31.255.255',
    '192.0.0.8',
    '192.0.2.1',
    '192.168.0.1',
    '198.18.0.1',
    '198.19.255.255',
    '198.51.100.7',
    '203.0.113.9',
    '224.0.0.1',
    '239.255.255.250',
    '240.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    '64:ff9b::a00:1',
    '64:ff9b:1::a00:1',
    '64:ff9b:1:ffff::1',
    '100::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '2002:a00:1::1',
    '2002:7f00:1::1',
    '3fff::1',
    'fec0::1',
    '2001:db8::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'febf::1',
    'ff02::1',
    '::ffff:10.0.0.1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::FFFF:192.168.1.1',
    '::ffff:a00:1',
    '::ffff:7f00:1',
  ])('%s is not public', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // One address per IANA special-purpose range that was once missing from the list.
  it.each([
    ['6to4', '2002:a00:1::1'],
    ['6to4 carrying a public IPv4 address', '2002:808:808::1'],
    ['local-use NAT64', '64:ff9b:1::a00:1'],
    ['well-known NAT64 carrying a public IPv4 address', '64:ff9b::808:808'],
    ['IETF protocol assignments (Teredo)', '2001::1'],
    ['IETF protocol assignments (benchmarking)', '2001:2::1'],
    ['IETF protocol assignments (ORCHIDv2)', '2001:20::1'],
    ['documentation (3fff::/20)', '3fff::1'],
    ['SRv6 SIDs', '5f00::1'],
    ['site-local (deprecated)', 'fec0::1'],
    ['IPv4-compatible (deprecated)', '::a00:1'],
    ['IPv4-translated', '::ffff:0:a00:1'],
    ['6to4 relay anycast', '192.88.99.1'],
  ])('%s: %s is not public', (_range, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '1.1.1.1',
    '8.8.8.8',
    '93.184.216.34',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.167.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2001:200::1',
    '2a00:1450:4001::200e',
    '::ffff:8.8.8.8',
  ])('%s is public', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('a text that is no address is not public', () => {
    expect(isPublicAddress('example.com')).toBe(false);
    expect(isPublicAddress('')).toBe(false);
  });
});

describe('refuseAddress', () => {
  it('refuses a private address unless private targets are allowed', () => {
    expect(refuseAddress('10.0.0.1', 'https:', strict)).toMatch(/not a public address/);
    expect(refuseAddress('10.0.0.1', 'https:', lenient)).toBeUndefined();
    expect(refuseAddress('10.0.0.1', 'http:', lenient)).toBeUndefined();
  });

  it('allows https: to a public address, never http:', () => {
    expect(refuseAddress('8.8.8.8', 'https:', strict)).toBeUndefined();
    expect(refuseAddress('8.8.8.8', 'http:', strict)).toMatch(/must be https:/);
    expect(refuseAddress('8.8.8.8', 'http:', lenient)).toMatch(/must be https:/);
  });
});

describe('refuseWebhookUrl', () => {
  it('allows https: to a host name (its addresses are checked at send time)', () => {
    expect(refuseWebhookUrl('https://hooks.example.com/in?x=1', strict)).toBeUndefined();
    expect(refuseWebhookUrl('https://8.8.8.8/in', strict)).toBeUndefined();
    expect(refuseWebhookUrl('https://[2606:4700:4700::1111]/in', strict)).toBeUndefined();
  });

  it('refuses what is not an absolute URL', () => {
    expect(refuseWebhookUrl('hooks.example.com/in', strict)).toBe('is not an absolute URL');
    expect(refuseWebhookUrl('', strict)).toBe('is not an absolute URL');
  });

  it('refuses other schemes', () => {
    for (const url of [
      'ftp://example.com/',
      'file:///etc/passwd',
      'ws://example.com/',
      'javascript:alert(1)',
    ])
      expect(refuseWebhookUrl(url, lenient), url).toBe('must be https:');
  });

  it('refuses http: unless private targets are allowed, and then only to private addresses', () => {
    expect(refuseWebhookUrl('http://hooks.example.com/', strict)).toMatch(/must be https:/);
    expect(refuseWebhookUrl('http://127.0.0.1:8080/', lenient)).toBeUndefined();
    expect(refuseWebhookUrl('http://8.8.8.8/', lenient)).toMatch(/must be https:/);
  });

  it('refuses credentials in the URL', () => {
    expect(refuseWebhookUrl('https://user:pw@example.com/', strict)).toMatch(
      /user name or password/,
    );
    expect(refuseWebhookUrl('https://user@example.com/', lenient)).toMatch(/user name or password/);
  });

  it('refuses literal private addresses in every spelling', () => {
    for (const url of [
      'https://10.0.0.1/',
      'https://127.0.0.1/',
      'https://169.254.169.254/latest/meta-data/',
      'https://0x7f000001/',
      'https://2130706433/',
      'https://0177.0.0.1/',
      'https://127.1/',
      'https://[::1]/',
      'https://[::]/',
      'https://[fd00::1]/',
      'https://[fe80::1]/',
      'https://[::ffff:10.0.0.1]/',
      'https://[::ffff:127.0.0.1]/',
      'https://[0:0:0:0:0:ffff:a9fe:a9fe]/',
    ])
      expect(refuseWebhookUrl(url, strict), url).toMatch(/not a public address/);
  });

  it('refuses localhost and its subdomains', () => {
    for (const url of ['https://localhost/', 'https://LOCALHOST:8443/', 'https://api.localhost/'])
      expect(refuseWebhookUrl(url, strict), url).toMatch(/not a public address/);
    expect(refuseWebhookUrl('http://localhost:3000/', lenient)).toBeUndefined();
  });
});
