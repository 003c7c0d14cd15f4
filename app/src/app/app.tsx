//! The app: providers around the router, and the new-version prompt.

import { RouterProvider } from 'react-router'

import { AppProviders } from './providers'
import { router } from './router'
import { UpdatePrompt } from './update-prompt'

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
      <UpdatePrompt />
    </AppProviders>
  )
}
