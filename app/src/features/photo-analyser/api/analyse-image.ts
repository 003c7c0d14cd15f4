//! `notification.analyseImage`: photos and a prompt in, the model's text out.

import { useRpcMutation } from '@/lib/rpc'

export const useAnalyseImage = () => useRpcMutation('notification.analyseImage')
