// Names as the screening search compares them: written in Latin, Cyrillic or Georgian script, with or
// without diacritics, in any case and punctuation, a name becomes the same lowercase ASCII words.
// "Tëstović", "TESTOVIC" and "Тестович" all give ["testovic"].

/** Letters that Unicode decomposition does not reduce to ASCII. */
const latin: Record<string, string> = { ß: 'ss', æ: 'ae', œ: 'oe', ø: 'o', ł: 'l', đ: 'd', ð: 'd', þ: 'th', ı: 'i', ŀ: 'l', ħ: 'h', ŧ: 't' };

/** Russian, Ukrainian and Serbian Cyrillic, close to the common passport transliterations. */
const cyrillic: Record<string, string> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', е: 'e', ё: 'e', ж: 'zh', з: 'z', и: 'i', й: 'y', к: 'k', л: 'l', м: 'm', н: 'n', о: 'o',
  п: 'p', р: 'r', с: 's', т: 't', у: 'u', ф: 'f', х: 'kh', ц: 'ts', ч: 'ch', ш: 'sh', щ: 'shch', ъ: '', ы: 'y', ь: '', э: 'e',
  ю: 'yu', я: 'ya', і: 'i', ї: 'yi', є: 'ye', ґ: 'g', ђ: 'dj', ј: 'j', љ: 'lj', њ: 'nj', ћ: 'c', џ: 'dz',
};

/** Georgian (Mkhedruli), the national romanization without apostrophes. */
const georgian: Record<string, string> = {
  ა: 'a', ბ: 'b', გ: 'g', დ: 'd', ე: 'e', ვ: 'v', ზ: 'z', თ: 't', ი: 'i', კ: 'k', ლ: 'l', მ: 'm', ნ: 'n', ო: 'o', პ: 'p', ჟ: 'zh',
  რ: 'r', ს: 's', ტ: 't', უ: 'u', ფ: 'p', ქ: 'k', ღ: 'gh', ყ: 'q', შ: 'sh', ჩ: 'ch', ც: 'ts', ძ: 'dz', წ: 'ts', ჭ: 'ch', ხ: 'kh', ჯ: 'j', ჰ: 'h',
};

const table: Record<string, string> = { ...latin, ...cyrillic, ...georgian };

/** The text in lowercase ASCII letters and digits, one space between words. */
export function transliterate(text: string): string {
  // Compose first so that a letter sent decomposed (и + breve) still finds its table entry.
  const mapped = [...text.normalize('NFC').toLowerCase()].map((char) => table[char] ?? char).join('');
  return mapped
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The words of a name, transliterated; empty when it holds no letter or digit. */
export function nameTokens(text: string): string[] {
  const plain = transliterate(text);
  return plain === '' ? [] : plain.split(' ');
}
