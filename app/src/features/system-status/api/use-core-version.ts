//! The wasm core's version, asked of the core worker: proves the module loaded.

import { useQuery } from '@tanstack/react-query'

import { getCore } from '@/lib/core'

export function useCoreVersion() {
  return useQuery({
    queryKey: ['core', 'version'],
    queryFn: () => getCore().coreVersion(),
    staleTime: Infinity,
    retry: false,
  })
}
