//! The AI assistant's public face for the shell: its provider (the sheet and its open state)
//! and the header's button that opens it.

export { AssistantProvider } from './assistant-provider'
export { AssistantButton } from './components/assistant-button'
