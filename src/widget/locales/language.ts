/** The language part of a BCP 47 tag, lower-cased ("pt-BR" -> "pt"); "" when it is not a tag. */
export function languageOf(tag: string): string {
  const lang = tag.split(/[-_]/)[0]?.toLowerCase() ?? '';
  return /^[a-z]{2,3}$/.test(lang) ? lang : '';
}
