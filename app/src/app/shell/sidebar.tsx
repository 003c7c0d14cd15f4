//! The sidebar's contents: the area's navigation, the superadmin menu and the area switch.

import {
  ArrowLeftRight,
  ChartLine,
  Building2,
  ClipboardList,
  FileText,
  LayoutDashboard,
  LayoutTemplate,
  LifeBuoy,
  ListChecks,
  type LucideIcon,
  Megaphone,
  MessageSquareText,
  Mic,
  Repeat,
  School,
  Settings,
  UsersRound,
  Workflow,
} from 'lucide-react'
import { Link, useLocation } from 'react-router'

import type { SessionUser } from '@/lib/auth-client'
import { useRpcQuery } from '@/lib/rpc'
import { useCoreLimits } from '@/lib/use-core'
import { cn } from '@/lib/utils'
import { usePupilWord } from '@/lib/pupil-word'

import {
  feedbackBadgeText,
  isNavItemActive,
  LEADERS_NAV,
  PUPIL_NAV,
  showsAreaSwitch,
  SUPERADMIN_NAV,
  visibleNavItems,
  type NavItem,
} from './navigation'
import { useRoleCheck } from './use-role-check'

/** The one icon of each navigation link (lucide-react, as everywhere in the app). */
const NAV_ICONS: Record<string, LucideIcon> = {
  '/': LayoutDashboard,
  '/notifications/create?type=ASSIGNMENT': ClipboardList,
  '/notifications/create?type=GENERAL': Megaphone,
  '/feedback': MessageSquareText,
  '/notifications': ListChecks,
  '/voice-notes': Mic,
  '/admin': School,
  '/support': LifeBuoy,
  '/leaders/tasks': ClipboardList,
  '/leaders/templates': LayoutTemplate,
  '/leaders/voice-notes': Mic,
  '/leaders/report-generator': FileText,
  '/leaders/insights': ChartLine,
  '/leaders/users': UsersRound,
  '/leaders/support': LifeBuoy,
  '/leaders/organisations': Repeat,
  '/leaders/settings': Settings,
  '/users': UsersRound,
  '/schools': Building2,
  '/api/bull': Workflow,
}

function NavIcon({ to }: { to: string }) {
  const Icon = NAV_ICONS[to]
  return Icon ? <Icon aria-hidden="true" className="size-4 shrink-0" /> : null
}

const linkClass =
  'flex items-center justify-between gap-2 rounded-md px-3 py-2 text-sm font-medium text-foreground hover:bg-muted aria-[current=page]:bg-primary aria-[current=page]:text-primary-foreground'

function FeedbackBadge() {
  const { feedbackHubPollSeconds } = useCoreLimits()
  const { data } = useRpcQuery('user.feedbackHubCount', undefined, {
    refetchInterval: feedbackHubPollSeconds * 1000,
    staleTime: 0,
  })
  const text = feedbackBadgeText(data)
  if (!text) return null
  return (
    <span
      className="inline-flex size-6 shrink-0 items-center justify-center rounded-full bg-destructive text-xs font-semibold text-white"
      data-testid="feedback-badge"
    >
      <span className="sr-only">, </span>
      {text}
      <span className="sr-only"> new</span>
    </span>
  )
}

function NavList({ items, label, onNavigate }: { items: NavItem[]; label: string; onNavigate?: () => void }) {
  const { pathname, search } = useLocation()
  if (items.length === 0) return null
  return (
    <nav aria-label={label}>
      <ul className="space-y-1">
        {items.map((item) => (
          <li key={item.to}>
            {item.external ? (
              <a href={item.to} target="_blank" rel="noopener noreferrer" className={linkClass}>
                <span className="flex items-center gap-3">
                  <NavIcon to={item.to} />
                  <span>
                    {item.label}
                    <span className="sr-only"> (opens in a new tab)</span>
                  </span>
                </span>
              </a>
            ) : (
              <Link
                to={item.to}
                onClick={onNavigate}
                aria-current={isNavItemActive(item, pathname, search) ? 'page' : undefined}
                data-tour={item.tour}
                className={linkClass}
              >
                <span className="flex items-center gap-3">
                  <NavIcon to={item.to} />
                  <span>{item.label}</span>
                </span>
                {item.badge === 'feedbackHub' && <FeedbackBadge />}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </nav>
  )
}

export function SidebarContent({
  user,
  leadersArea,
  onNavigate,
}: {
  user: SessionUser
  leadersArea: boolean
  onNavigate?: () => void
}) {
  const allowed = useRoleCheck(user.role)
  const word = usePupilWord()
  if (!allowed) return <div className="p-4" aria-busy="true" />
  const main = visibleNavItems(leadersArea ? LEADERS_NAV : PUPIL_NAV, allowed)
  const superadmin = visibleNavItems(SUPERADMIN_NAV, allowed)
  return (
    <div className="flex h-full min-h-0 flex-col gap-6 overflow-y-auto overscroll-contain p-4">
      <NavList items={main} label={leadersArea ? 'Leaders' : 'Main'} onNavigate={onNavigate} />
      {superadmin.length > 0 && (
        <div className="space-y-2 border-t border-border pt-4">
          <p className="px-3 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Superadmin</p>
          <NavList items={superadmin} label="Superadmin" onNavigate={onNavigate} />
        </div>
      )}
      {showsAreaSwitch(user) && (
        <div className="mt-auto border-t border-border pt-4">
          <Link
            to={leadersArea ? '/' : '/leaders/tasks'}
            onClick={onNavigate}
            className={cn(linkClass, 'justify-center border border-border')}
          >
            <span className="flex items-center gap-2">
              <ArrowLeftRight aria-hidden="true" className="size-4" />
              {leadersArea ? `For ${word.many}` : 'For leaders'}
            </span>
          </Link>
        </div>
      )}
    </div>
  )
}
