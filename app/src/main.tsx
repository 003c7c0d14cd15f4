//! The browser entry: mounts the app and registers the service worker.

import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'

import { App } from './app/app'
import { startFirstScreen } from './app/first-screen'
import { queryClient } from './app/providers'
import './index.css'
import { registerServiceWorker } from './lib/pwa'

const root = document.getElementById('root')
if (!root) throw new Error('index.html has no #root element')

startFirstScreen(queryClient)

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
)
registerServiceWorker()
