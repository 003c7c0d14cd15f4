//! Shown when rendering a route throws, instead of the router's developer screen.

import { Link, useRouteError } from 'react-router'

import { Button } from '@/components/ui/button'

import { AppLayout } from '../layout'

export function RouteErrorPage() {
  // The error itself is for developers (it is in the console); staff read a sentence.
  useRouteError()
  return (
    <AppLayout>
      <div className="space-y-4">
        <h1 className="text-3xl font-bold tracking-tight">Something went wrong</h1>
        <p className="text-muted-foreground">
          The page could not be shown. Reload the page to try again, or go back to the home page.
        </p>
        <div className="flex flex-wrap gap-2">
          <Button onClick={() => window.location.reload()}>Reload the page</Button>
          <Button asChild variant="outline">
            <Link to="/">Go to the home page</Link>
          </Button>
        </div>
      </div>
    </AppLayout>
  )
}
