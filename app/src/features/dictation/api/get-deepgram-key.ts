//! `submission.getDeepgramKey`: a fresh, short-lived credential for the speech provider, asked
//! by the dictation session each time it connects (not a hook: the session is not a component).

import { rpcMutation } from '@/lib/rpc'

import type { SpeechCredential } from '../dictation-session'

export function mintSpeechCredential(): Promise<SpeechCredential> {
  return rpcMutation('submission.getDeepgramKey', undefined)
}
