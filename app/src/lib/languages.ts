//! The languages a person may choose for e-mails, from the core (core-wasm/src/languages.rs,
//! the list the server checks `language` against): one list, never a copy in a page.

import { useQuery } from '@tanstack/react-query'

import { getCore } from './core'

/** `[code, English name]`, as a `<select>` lists them. */
export type LanguageOption = readonly [code: string, name: string]

/**
 * The language options, sorted by name, always including `current` (the stored value) so the
 * select shows it while the list loads and when it is a tag the list does not name (`pt-BR`).
 */
export function useLanguageOptions(current: string): ReadonlyArray<LanguageOption> {
  const { data } = useQuery({
    queryKey: ['core', 'languages'],
    queryFn: () => getCore().languages(),
    staleTime: Infinity,
  })
  const listed: LanguageOption[] = (data ?? []).map(({ code, name }) => [code, name] as const)
  return listed.some(([code]) => code === current) ? listed : [...listed, [current, current] as const]
}
