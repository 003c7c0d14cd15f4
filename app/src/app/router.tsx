//! The routes of spec section 2. Public pages sit in the plain frame; every other page sits
//! in the signed-in shell behind the session guard. Pages other than /login are loaded on
//! demand (route `lazy`), so the first download stays small.

import { createBrowserRouter, Outlet, type RouteObject } from 'react-router'

import { LoginPage } from '@/features/auth/components/login-page'
import type { UserRole } from '@/lib/auth-client'
import { SessionProvider } from '@/lib/session'

import { ProtectedShell, RequireRole } from './guards'
import { AppLayout } from './layout'
import { RouteErrorPage } from './routes/route-error'

/** A page that only shows its name and that it is coming (optionally for some roles only). */
function placeholder(path: string, title: string, roles?: UserRole[]): RouteObject {
  return {
    path,
    lazy: async () => {
      const { PlaceholderPage } = await import('./routes/placeholder')
      return { Component: () => <PlaceholderPage title={title} roles={roles} /> }
    },
  }
}

const settings = async () => ({ Component: (await import('./routes/settings')).SettingsRoute })

const voiceNotes = async () => ({
  Component: (await import('@/features/voice-notes/components/voice-notes-page')).VoiceNotesPage,
})

const admin = async () => ({ Component: (await import('@/features/admin/components/admin-page')).AdminPage })

const ADMIN: UserRole[] = ['ADMIN']
const ADMINS: UserRole[] = ['ADMIN', 'ORG_ADMIN']

export const routes: RouteObject[] = [
  {
    element: (
      <SessionProvider>
        <Outlet />
      </SessionProvider>
    ),
    errorElement: <RouteErrorPage />,
    children: [
      {
        element: <AppLayout />,
        children: [
          { path: '/login', element: <LoginPage /> },
          {
            path: '/account/forgot',
            lazy: async () => ({ Component: (await import('@/features/account/components/forgot-page')).ForgotPasswordPage }),
          },
          {
            path: '/account/reset',
            lazy: async () => ({ Component: (await import('@/features/account/components/reset-page')).ResetPasswordPage }),
          },
          {
            path: '/account/confirm',
            lazy: async () => ({ Component: (await import('@/features/account/components/confirm-page')).ConfirmEmailPage }),
          },
          {
            path: '/account/register',
            lazy: async () => ({ Component: (await import('@/features/account/components/register-page')).RegisterPage }),
          },
          {
            path: '/preferences/:token',
            lazy: async () => ({
              Component: (await import('@/features/preferences/components/preferences-page')).PreferencesPage,
            }),
          },
          {
            path: '/submissions/:id/:token',
            lazy: async () => ({
              Component: (await import('@/features/submissions/components/submission-page')).SubmissionPage,
            }),
          },
        ],
      },
      {
        element: <ProtectedShell />,
        children: [
          { path: '/', lazy: async () => ({ Component: (await import('./routes/home')).DashboardPage }) },
          { path: '/notifications', lazy: async () => ({ Component: (await import('@/features/activity/components/activity-page')).ActivityPage }) },
          {
            path: '/notifications/create',
            lazy: async () => ({ Component: (await import('@/features/notifications/components/notification-editor')).CreateNotificationPage }),
          },
          {
            path: '/notifications/:id/edit',
            lazy: async () => ({ Component: (await import('@/features/notifications/components/notification-editor')).EditNotificationPage }),
          },
          {
            path: '/notifications/:id/:activeTab',
            lazy: async () => ({ Component: (await import('@/features/notifications/components/notification-page')).NotificationPage }),
          },
          {
            path: '/feedback',
            lazy: async () => ({ Component: (await import('@/features/feedback/components/feedback-hub-page')).FeedbackHubPage }),
          },
          { path: '/voice-notes', lazy: voiceNotes },
          {
            element: <RequireRole roles={ADMIN} title="Manage School" />,
            children: [
              { path: '/admin', lazy: admin },
              { path: '/admin/:activeTab', lazy: admin },
            ],
          },
          placeholder('/support', 'Help & Support', ADMIN),
          {
            path: '/students/:id',
            lazy: async () => ({
              Component: (await import('@/features/students/components/student-profile-page')).StudentProfilePage,
            }),
          },
          { path: '/settings', lazy: settings },
          placeholder('/leaders', 'Tasks'),
          placeholder('/leaders/tasks', 'Tasks'),
          placeholder('/leaders/tasks/create', 'New task'),
          placeholder('/leaders/tasks/:id/edit', 'Edit task'),
          placeholder('/leaders/templates', 'Templates', ADMINS),
          placeholder('/leaders/templates/create', 'New template', ADMINS),
          placeholder('/leaders/templates/:id', 'Template', ADMINS),
          placeholder('/leaders/templates/:id/edit', 'Edit template', ADMINS),
          { path: '/leaders/voice-notes', lazy: voiceNotes },
          placeholder('/leaders/report-generator', 'Report generator'),
          placeholder('/leaders/users', 'Manage Users', ADMINS),
          placeholder('/leaders/support', 'Support'),
          placeholder('/leaders/organisations', 'Switch Organisations', ['MAT_USER']),
          { path: '/leaders/settings', lazy: settings },
          placeholder('/users', 'Manage users', ['SUPERADMIN']),
          placeholder('/schools', 'Manage organisations', ['SUPERADMIN']),
        ],
      },
      {
        element: <AppLayout />,
        children: [
          {
            path: '*',
            lazy: async () => ({ Component: (await import('./routes/not-found')).NotFoundPage }),
          },
        ],
      },
    ],
  },
]

export const router = createBrowserRouter(routes)
