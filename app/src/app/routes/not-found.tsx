//! Every path the app does not have yet: says so and leads back home.

import { Link } from 'react-router'

import { Button } from '@/components/ui/button'

export function ComingSoonPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-3xl font-bold tracking-tight">This page is coming soon</h1>
      <p className="text-muted-foreground">This part of Voicemark is not built yet.</p>
      <Button asChild>
        <Link to="/">Go to the home page</Link>
      </Button>
    </div>
  )
}
