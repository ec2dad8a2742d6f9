import { describe, expect, it } from 'vitest';
import { backupCodesFileText, groupInFours, secretOfTotpUri } from './two-factor-api.ts';

describe('the set-up screens', () => {
  it('read the base32 key from the otpauth URI', () => {
    const uri =
      'otpauth://totp/Credentialing:ada%40example.test?secret=JBSWY3DPEHPK3PXP&issuer=Credentialing&digits=6&period=30';
    expect(secretOfTotpUri(uri)).toBe('JBSWY3DPEHPK3PXP');
    expect(secretOfTotpUri('otpauth://totp/x?secret=jbswy3dp====')).toBe('JBSWY3DP');
    expect(secretOfTotpUri('not a uri')).toBe('');
    expect(secretOfTotpUri('otpauth://totp/x')).toBe('');
  });

  it('show the key in groups of four', () => {
    expect(groupInFours('JBSWY3DPEHPK3PXP')).toBe('JBSW Y3DP EHPK 3PXP');
    expect(groupInFours('ABCDEFGHIJ')).toBe('ABCD EFGH IJ');
    expect(groupInFours('')).toBe('');
  });

  it('write every backup code on its own line in the download', () => {
    const text = backupCodesFileText(['aaaa-1111', 'bbbb-2222'], 'ada@example.test');
    expect(text).toContain('Account: ada@example.test');
    expect(text.split('\n')).toEqual(expect.arrayContaining(['aaaa-1111', 'bbbb-2222']));
  });
});
