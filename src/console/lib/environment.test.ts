import { describe, expect, it } from 'vitest';
import { accountBasename, accountOfPath, pathInAccount } from './environment';

describe('the account in the address', () => {
  it('is read from /a/{id}/ and nowhere else', () => {
    expect(accountOfPath('/a/acc_01J/configs/cfg_1')).toBe('acc_01J');
    expect(accountOfPath('/a/acc_01J')).toBe('acc_01J');
    expect(accountOfPath('/configs/a/acc_01J')).toBeNull();
    expect(accountOfPath('/a/acc%20x/configs')).toBeNull();
    expect(accountBasename('/a/acc_2/settings')).toBe('/a/acc_2');
    expect(accountBasename('/settings')).toBe('');
  });

  it("keeps the section when moving to another account, not the other account's ids", () => {
    expect(pathInAccount('acc_2', '/a/acc_1/configs/cfg_9/history')).toBe('/a/acc_2/configs');
    expect(pathInAccount('acc_2', '/a/acc_1/ab-tests/t')).toBe('/a/acc_2/ab-tests');
    expect(pathInAccount('acc_2', '/settings/members')).toBe('/a/acc_2/settings');
    expect(pathInAccount('acc_2', '/sign-in')).toBe('/a/acc_2/configs');
  });
});
