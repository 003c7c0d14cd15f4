//! The routes. Until sign-in and the full shell land, every path but `/` shows a
//! "coming soon" page inside the layout, so deep links never render a blank screen.

import { createBrowserRouter } from 'react-router'

import { AppLayout } from './layout'
import { ComingSoonPage } from './routes/coming-soon'
import { HomePage } from './routes/home'
import { RouteErrorPage } from './routes/route-error'

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    errorElement: <RouteErrorPage />,
    children: [
      { index: true, element: <HomePage /> },
      { path: '*', element: <ComingSoonPage /> },
    ],
  },
])
