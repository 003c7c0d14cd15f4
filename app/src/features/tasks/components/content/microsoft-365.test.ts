import { describe, expect, it } from 'vitest'

import { fileSize, microsoftOutcome, MICROSOFT_OUTCOMES, recordingItemName, recordingTitle, withoutOutcome } from './microsoft-365'

describe('the Microsoft 365 part', () => {
  it('explains every outcome the callback returns with, and ignores others', () => {
    for (const value of ['connected', 'refused', 'declined', 'not-linked', 'not-set-up', 'unavailable', 'signed-out']) {
      expect(microsoftOutcome(value)).toBe(value)
      expect(MICROSOFT_OUTCOMES[microsoftOutcome(value)!]).toMatch(/\.$/)
    }
    expect(microsoftOutcome('toString')).toBeUndefined()
    expect(microsoftOutcome('')).toBeUndefined()
    expect(microsoftOutcome(null)).toBeUndefined()
  })

  it('shows a recording as dd/MM/yyyy, HH:mm and names it without slashes', () => {
    const at = new Date(2026, 10, 20, 9, 5).toISOString()
    expect(recordingTitle(at)).toBe('Teams recording 20/11/2026, 09:05')
    expect(recordingItemName(at)).toBe('Teams recording 20-11-2026 09.05')
    expect(recordingTitle(null)).toBe('Teams recording')
    expect(recordingItemName('not a date')).toBe('Teams recording')
  })

  it('says sizes in words', () => {
    expect(fileSize(12)).toBe('12 bytes')
    expect(fileSize(820 * 1024)).toBe('820 KB')
    expect(fileSize(1.5 * 1024 * 1024)).toBe('1.5 MB')
    expect(fileSize(null)).toBe('')
  })

  it('drops only the outcome from the address', () => {
    expect(withoutOutcome('/leaders/tasks/t1/edit', '?microsoft=connected')).toBe('/leaders/tasks/t1/edit')
    expect(withoutOutcome('/leaders/tasks/t1/edit', '?step=2&microsoft=refused')).toBe('/leaders/tasks/t1/edit?step=2')
  })
})
