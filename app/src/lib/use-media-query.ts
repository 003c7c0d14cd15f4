//! Whether a CSS media query matches now, kept up to date as the window changes.

import { useEffect, useState } from 'react'

/** `query`'s match; `true` where the browser cannot tell (no `matchMedia`). */
export function useMediaQuery(query: string): boolean {
  const [matches, setMatches] = useState(() => window.matchMedia?.(query).matches ?? true)
  useEffect(() => {
    const list = window.matchMedia?.(query)
    if (!list) return
    const onChange = () => setMatches(list.matches)
    onChange()
    list.addEventListener('change', onChange)
    return () => list.removeEventListener('change', onChange)
  }, [query])
  return matches
}
