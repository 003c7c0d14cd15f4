//! The signed-in frame: skip link, 60 px header (logo, Upgrade to Pro, AI assistant, Settings,
//! user menu), 300 px sidebar (a sheet behind a burger button under 768 px), the routed page in
//! `main`, and the mod+K search palette.

import { lazy, Suspense, useEffect, useState } from 'react'
import { Crown, Menu, Search, Settings } from 'lucide-react'
import { Link, Outlet, useLocation } from 'react-router'

import { Button } from '@/components/ui/button'
import { Dialog, DialogDescription, DialogTitle, SheetContent } from '@/components/ui/dialog'
import { AssistantButton, AssistantProvider } from '@/features/assistant'
import { PlanChangeModal, UpgradeBanner } from '@/features/billing'
import { DictationProvider } from '@/features/dictation/dictation-provider'
import { PhotoAnalyserProvider } from '@/features/photo-analyser'
import { OnboardingTour } from '@/features/tour'
import { VoiceNoteRecorderProvider } from '@/features/voice-notes/voice-note-recorder'
import type { SessionUser } from '@/lib/auth-client'
import { isLeadersPath } from '@/lib/callback-url'
import { isPro } from '@/lib/session'
// The tRPC client loads with the shell, in the same wave of files, rather than after the
// page's first query asks for it (lib/rpc.ts loads it on demand for pages outside the shell).
import '@/lib/rpc-client'
import { canChangePlan, UpgradeProvider } from '@/lib/upgrade'

import { pageWidthClass, paletteShortcutHint } from './frame'
import { isPaletteShortcut } from './navigation'
import { HeaderOrganisation } from './organisation-picker'
import { SidebarContent } from './sidebar'
import { UpgradeDialog } from './upgrade-dialog'
import { useRoleCheck } from './use-role-check'
import { UserMenu } from './user-menu'
import { OutboxButton } from './outbox-button'
import { useOutboxService } from '@/lib/outbox/use-outbox'
import { SHELL_CLASSES } from '@/lib/first-frame'
import { useFirstFrameGone } from '@/lib/use-first-frame'
import { useMediaQuery } from '@/lib/use-media-query'

const SearchPalette = lazy(() => import('./search-palette'))

export function SkipLink() {
  return (
    <a
      href="#main"
      className="absolute top-2 left-2 z-50 -translate-y-[200%] rounded-md bg-primary px-4 py-2 text-primary-foreground focus:translate-y-0"
    >
      Skip to main content
    </a>
  )
}

/**
 * The search palette, mounted (closed) once the shell has settled, so its code is already
 * here at the first mod+K and no keystroke typed straight after the shortcut is lost; at
 * once when it is opened before that. Its own state, so mounting it redraws nothing else.
 */
function DeferredPalette({ open, onOpenChange }: { open: boolean; onOpenChange(open: boolean): void }) {
  const [loaded, setLoaded] = useState(false)
  useEffect(() => {
    const timer = window.setTimeout(() => setLoaded(true), 1500)
    return () => window.clearTimeout(timer)
  }, [])
  if (!loaded && !open) return null
  return (
    <Suspense fallback={null}>
      <SearchPalette open={open} onOpenChange={onOpenChange} />
    </Suspense>
  )
}

export function Shell({ user }: { user: SessionUser }) {
  useOutboxService(user.id)
  useFirstFrameGone()
  const { pathname } = useLocation()
  const leadersArea = isLeadersPath(pathname)
  const allowed = useRoleCheck(user.role)
  const [menuOpen, setMenuOpen] = useState(false)
  const [upgradeOpen, setUpgradeOpen] = useState(false)
  const [paletteOpen, setPaletteOpen] = useState(false)
  // The desktop sidebar is hidden under 768 px (the menu button opens the same links in a
  // sheet): a phone does not draw it at all, which spares its first paint the work.
  const wide = useMediaQuery('(min-width: 768px)')

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!isPaletteShortcut(event)) return
      event.preventDefault()
      setPaletteOpen((open) => !open)
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [])

  const openPalette = () => setPaletteOpen(true)

  const showUpgrade = leadersArea && !!allowed?.(['ADMIN', 'ORG_ADMIN']) && !isPro(user)
  const settingsPath = leadersArea ? '/leaders/settings' : '/settings'

  return (
    <UpgradeProvider onUpgrade={() => setUpgradeOpen(true)} canUpgrade={canChangePlan(user.role)}>
    <VoiceNoteRecorderProvider>
    <PhotoAnalyserProvider>
    <DictationProvider>
    <AssistantProvider>
    <div className={SHELL_CLASSES.root}>
      <SkipLink />
      <header className={SHELL_CLASSES.header}>
        <Button
          variant="ghost"
          size="sm"
          className="px-2 md:hidden"
          aria-label="Open menu"
          onClick={() => setMenuOpen(true)}
        >
          <Menu aria-hidden="true" className="size-5" />
        </Button>
        <Link
          to={leadersArea ? '/leaders/tasks' : '/'}
          className={SHELL_CLASSES.brand}
        >
          <img src="/logo.svg" alt="" width={32} height={32} className="size-8" />
          {/* On a phone the name gives its room to the header's icon buttons (and still names the link). */}
          <span className="sr-only sm:not-sr-only">Voicemark</span>
        </Link>
        <div className="flex-1" />
        <HeaderOrganisation user={user} />
        {/* Phones have no keyboard shortcut and no room for the wide button: the same palette
            (its actions New message, New voice note, New photo, and pupil search) behind an icon. */}
        <Button
          variant="ghost"
          size="sm"
          className="px-2 sm:hidden"
          aria-label="Search and actions"
          onClick={openPalette}
        >
          <Search aria-hidden="true" className="size-5" />
        </Button>
        <Button
          variant="outline"
          size="sm"
          onClick={openPalette}
          aria-keyshortcuts="Control+K Meta+K"
          className="hidden text-muted-foreground sm:inline-flex"
        >
          <Search aria-hidden="true" className="size-4" />
          Search <kbd className="rounded border border-border px-1 text-xs">{paletteShortcutHint()}</kbd>
        </Button>
        {showUpgrade && (
          <>
            <Button size="sm" className="hidden lg:inline-flex" onClick={() => setUpgradeOpen(true)}>
              <Crown aria-hidden="true" className="size-4" />
              Upgrade to Pro
            </Button>
            {/* A phone or tablet has no room for the words: the same button as an icon. */}
            <Button size="sm" className="px-2 lg:hidden" aria-label="Upgrade to Pro" onClick={() => setUpgradeOpen(true)}>
              <Crown aria-hidden="true" className="size-4" />
            </Button>
          </>
        )}
        <OutboxButton />
        <AssistantButton />
        {/* On a phone Settings lives in the user menu (and the leaders' navigation) only. */}
        <Button variant="ghost" size="sm" className="hidden sm:inline-flex" asChild>
          <Link to={settingsPath} aria-label="Settings">
            <Settings aria-hidden="true" className="size-5" />
          </Link>
        </Button>
        <UserMenu user={user} settingsPath={settingsPath} onUpgrade={() => setUpgradeOpen(true)} />
      </header>
      <div className={SHELL_CLASSES.body}>
        <div className={SHELL_CLASSES.sidebar}>
          {wide && <SidebarContent user={user} leadersArea={leadersArea} />}
        </div>
        <main id="main" tabIndex={-1} className={SHELL_CLASSES.main}>
          <div className={`mx-auto ${pageWidthClass(pathname)}`}>
            {showUpgrade && <UpgradeBanner onUpgrade={() => setUpgradeOpen(true)} />}
            <Outlet />
          </div>
        </main>
      </div>
      <Dialog open={menuOpen} onOpenChange={setMenuOpen}>
        <SheetContent>
          <DialogTitle className="sr-only">Menu</DialogTitle>
          <DialogDescription className="sr-only">Site navigation</DialogDescription>
          <SidebarContent user={user} leadersArea={leadersArea} onNavigate={() => setMenuOpen(false)} />
        </SheetContent>
      </Dialog>
      <UpgradeDialog
        open={upgradeOpen}
        onOpenChange={setUpgradeOpen}
        canPay={canChangePlan(user.role)}
        pro={isPro(user)}
        role={user.role}
      />
      <PlanChangeModal />
      <OnboardingTour hasCompletedTutorial={user.hasCompletedTutorial} canSeeTemplates={allowed?.(['ADMIN', 'ORG_ADMIN'])} />
      <DeferredPalette open={paletteOpen} onOpenChange={setPaletteOpen} />
    </div>
    </AssistantProvider>
    </DictationProvider>
    </PhotoAnalyserProvider>
    </VoiceNoteRecorderProvider>
    </UpgradeProvider>
  )
}
