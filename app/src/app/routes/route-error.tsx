//! Shown when rendering a route throws, instead of the router's developer screen.

import { Link, useRouteError } from 'react-router'

import { Button } from '@/components/ui/button'

import { AppLayout } from '../layout'

export function RouteErrorPage() {
  const error = useRouteError()
  const detail = error instanceof Error ? error.message : undefined
  return (
    <AppLayout>
      <div className="space-y-4">
        <h1 className="text-3xl font-bold tracking-tight">Something went wrong</h1>
        <p className="text-muted-foreground">
          The page could not be shown{detail ? `: ${detail}` : '.'}
        </p>
        <Button asChild>
          <Link to="/">Go to the home page</Link>
        </Button>
      </div>
    </AppLayout>
  )
}
