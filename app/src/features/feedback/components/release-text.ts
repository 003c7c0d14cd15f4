//! How a mark's release reads in the Hub: "Released", or the held line the notification page
//! uses ("Held until dd/MM/yyyy, HH:mm", "Held: release by hand").

import { heldLabel } from '@/components/release-feedback'
import type { MarkedItem } from '@/generated/rpc-types'

export function releaseText(release: MarkedItem['release'], releaseAt: Date | null): string {
  return release === 'RELEASED' ? 'Released' : heldLabel(release, releaseAt)
}

export const SENTIMENT_LABEL = { NEUTRAL: 'Neutral', POSITIVE: 'Positive', NEGATIVE: 'Negative' } as const
