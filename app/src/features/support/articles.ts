//! The help articles: Markdown files in `./articles/`, bundled with this (lazy) feature, and
//! a plain search over them. An article's title is its first `# ` line; its id is the file
//! name without the number prefix and `.md`.

export interface Article {
  id: string
  title: string
  /** The Markdown after the title line. */
  body: string
}

/** Reads one article file (`path` as `import.meta.glob` gives it). */
export function parseArticle(path: string, source: string): Article {
  const file = path.split('/').pop() ?? path
  const id = file.replace(/\.md$/, '').replace(/^\d+-/, '')
  const lines = source.replace(/\r\n/g, '\n').split('\n')
  const titleAt = lines.findIndex((line) => line.startsWith('# '))
  const title = titleAt >= 0 ? lines[titleAt].slice(2).trim() : id
  const body = (titleAt >= 0 ? lines.slice(titleAt + 1) : lines).join('\n').trim()
  return { id, title, body }
}

/** Every article, in file order. */
export function loadArticles(): Article[] {
  const files = import.meta.glob<string>('./articles/*.md', { query: '?raw', import: 'default', eager: true })
  return Object.keys(files)
    .sort()
    .map((path) => parseArticle(path, files[path]))
}

const fold = (text: string) => text.toLocaleLowerCase('en-GB').normalize('NFKD').replace(/[\u0300-\u036f]/g, '')

/**
 * The articles that contain every word of `query` (title or text, any case, accents
 * ignored), those with more words in the title first; all of them for an empty query.
 */
export function searchArticles(articles: Article[], query: string): Article[] {
  const words = fold(query).split(/\s+/).filter(Boolean)
  if (words.length === 0) return articles
  return articles
    .map((article, index) => {
      const title = fold(article.title)
      const text = `${title}\n${fold(article.body)}`
      if (!words.every((word) => text.includes(word))) return null
      const inTitle = words.filter((word) => title.includes(word)).length
      return { article, index, inTitle }
    })
    .filter((hit): hit is { article: Article; index: number; inTitle: number } => hit !== null)
    .sort((a, b) => b.inTitle - a.inTitle || a.index - b.index)
    .map((hit) => hit.article)
}
