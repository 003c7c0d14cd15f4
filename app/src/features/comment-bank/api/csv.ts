//! `commentBank.importCsv` and `commentBank.exportCsv`: a CSV file (text,sentiment,tags) into
//! the personal bank, all or nothing; and a part of the bank downloaded as one.

import { useQueryClient } from '@tanstack/react-query'

import { rpcQuery, useRpcMutation } from '@/lib/rpc'

import { refreshCommentBank } from './list-comments'

export function useImportComments() {
  const client = useQueryClient()
  return useRpcMutation('commentBank.importCsv', { onSuccess: () => refreshCommentBank(client) })
}

/** Downloads the shelf's comments as a CSV file; answers how many rows it holds. */
export async function downloadCommentsCsv(shelf: 'MINE' | 'SCHOOL'): Promise<number> {
  const { filename, csv, rows } = await rpcQuery('commentBank.exportCsv', { shelf })
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1_000)
  return rows
}
