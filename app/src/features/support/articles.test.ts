import { describe, expect, it } from 'vitest'

import { loadArticles, parseArticle, searchArticles } from './articles'

describe('help articles', () => {
  it('reads the title and id of a file', () => {
    const article = parseArticle('./articles/03-feedback-hub.md', '# Marking work\r\n\r\nOpen a submission.\n')
    expect(article).toEqual({ id: 'feedback-hub', title: 'Marking work', body: 'Open a submission.' })
  })

  it('bundles every article file with a title and text', () => {
    const articles = loadArticles()
    expect(articles.length).toBeGreaterThanOrEqual(8)
    for (const article of articles) {
      expect(article.title.length).toBeGreaterThan(3)
      expect(article.body.length).toBeGreaterThan(50)
    }
    expect(new Set(articles.map((a) => a.id)).size).toBe(articles.length)
  })

  it('finds articles with every word, title hits first, any case and accents', () => {
    const articles = [
      { id: 'a', title: 'Voice notes', body: 'Record a note.' },
      { id: 'b', title: 'Dictation', body: 'Speak and your voice becomes text. Café.' },
      { id: 'c', title: 'Photos', body: 'Take photos.' },
    ]
    expect(searchArticles(articles, 'VOICE').map((a) => a.id)).toEqual(['a', 'b'])
    expect(searchArticles(articles, 'voice text').map((a) => a.id)).toEqual(['b'])
    expect(searchArticles(articles, 'cafe').map((a) => a.id)).toEqual(['b'])
    expect(searchArticles(articles, 'nothing here')).toEqual([])
    expect(searchArticles(articles, '  ')).toHaveLength(3)
  })
})
