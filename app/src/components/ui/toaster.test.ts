// The toast list keeps at most `limit` toasts, dropping the oldest.

import { describe, expect, it } from 'vitest'

import { withNewToast } from './toaster'

describe('withNewToast', () => {
  it('appends and keeps the newest `limit`', () => {
    let list: number[] = []
    for (let i = 1; i <= 7; i++) list = withNewToast(list, i, 5)
    expect(list).toEqual([3, 4, 5, 6, 7])
    expect(withNewToast([], 1, 0)).toEqual([1])
  })
})
