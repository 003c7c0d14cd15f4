//! The routes of spec section 2. Public pages sit in the plain frame; every other page sits
//! in the signed-in shell behind the session guard. Every page is loaded on demand (route
//! `lazy`), so the first download stays small.

import { createBrowserRouter, Outlet, type RouteObject } from 'react-router'

import { PageLoading } from '@/components/page-loading'
import type { UserRole } from '@/lib/auth-client'
import { SessionProvider } from '@/lib/session'

import { ProtectedShell, RequireRole } from './guards'
import { RequireOrganisation } from './require-organisation'
import { AppLayout } from './layout'
import { RouteErrorPage } from './routes/route-error'

const settings = async () => ({ Component: (await import('./routes/settings')).SettingsRoute })

const voiceNotes = async () => ({
  Component: (await import('@/features/voice-notes/components/voice-notes-page')).VoiceNotesPage,
})

const tasksList = async () => ({ Component: (await import('@/features/tasks/components/tasks-page')).TasksPage })

const admin = async () => ({ Component: (await import('@/features/admin/components/admin-page')).AdminPage })

const support = async () => ({
  Component: (await import('@/features/support/components/support-page')).SupportPage,
})

/** `children` behind the superadmin's organisation check. */
function withOrganisation(children: RouteObject[]): RouteObject[] {
  return [{ element: <RequireOrganisation />, children }]
}

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
    // Shown while the first page's lazy route loads (and React Router then has no
    // "No HydrateFallback element" warning to give on every page load).
    hydrateFallbackElement: <PageLoading />,
    children: [
      {
        element: <AppLayout />,
        children: [
          // Loaded on demand like every other page: its form (react-hook-form) is then not in
          // the first download of a signed-in page, and /login's first frame shows meanwhile.
          {
            path: '/login',
            lazy: async () => ({ Component: (await import('@/features/auth/components/login-page')).LoginPage }),
          },
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
            path: '/messages/:token',
            lazy: async () => ({
              Component: (await import('@/features/messages/components/message-page')).MessagePage,
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
        // A superadmin sees a school's pages once an organisation is chosen.
        children: withOrganisation([
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
          {
            path: '/feedback/comment-bank',
            lazy: async () => ({
              Component: (await import('@/features/comment-bank/components/comment-bank-page')).CommentBankPage,
            }),
          },
          { path: '/voice-notes', lazy: voiceNotes },
          {
            element: <RequireRole roles={ADMIN} title="Manage School" />,
            children: [
              { path: '/admin', lazy: admin },
              { path: '/admin/:activeTab', lazy: admin },
            ],
          },
          {
            element: <RequireRole roles={ADMIN} title="Help & Support" />,
            children: [{ path: '/support', lazy: support }],
          },
          {
            path: '/students/:id',
            lazy: async () => ({
              Component: (await import('@/features/students/components/student-profile-page')).StudentProfilePage,
            }),
          },
          { path: '/settings', lazy: settings },
          { path: '/leaders', lazy: tasksList },
          { path: '/leaders/tasks', lazy: tasksList },
          {
            path: '/leaders/tasks/create',
            lazy: async () => ({ Component: (await import('@/features/tasks/components/create-task-page')).CreateTaskPage }),
          },
          {
            path: '/leaders/tasks/:id/edit',
            lazy: async () => ({ Component: (await import('@/features/tasks/components/edit-task-page')).EditTaskPage }),
          },
          {
            element: <RequireRole roles={ADMINS} title="Templates" />,
            children: [
              {
                path: '/leaders/templates',
                lazy: async () => ({ Component: (await import('@/features/templates/components/templates-page')).TemplatesPage }),
              },
              {
                path: '/leaders/templates/create',
                lazy: async () => ({
                  Component: (await import('@/features/templates/components/template-form-page')).CreateTemplatePage,
                }),
              },
              {
                path: '/leaders/templates/:id',
                lazy: async () => ({ Component: (await import('@/features/templates/components/template-page')).TemplatePage }),
              },
              {
                path: '/leaders/templates/:id/edit',
                lazy: async () => ({
                  Component: (await import('@/features/templates/components/template-form-page')).EditTemplatePage,
                }),
              },
            ],
          },
          { path: '/leaders/voice-notes', lazy: voiceNotes },
          {
            // Insights and Recharts load only here (docs/insights.md).
            path: '/leaders/insights',
            lazy: async () => ({ Component: (await import('@/features/insights/components/insights-page')).InsightsPage }),
          },
          {
            path: '/leaders/report-generator',
            lazy: async () => ({
              Component: (await import('@/features/reports/components/report-generator-page')).ReportGeneratorPage,
            }),
          },
          {
            element: <RequireRole roles={ADMINS} title="Manage Users" />,
            children: [
              {
                path: '/leaders/users',
                lazy: async () => ({ Component: (await import('@/features/users/components/manage-users-page')).ManageUsersPage }),
              },
            ],
          },
          { path: '/leaders/support', lazy: support },
          {
            element: <RequireRole roles={['MAT_USER']} title="Switch Organisations" />,
            children: [
              {
                path: '/leaders/organisations',
                lazy: async () => ({
                  Component: (await import('@/features/organisations/components/switch-organisations-page'))
                    .SwitchOrganisationsPage,
                }),
              },
            ],
          },
          { path: '/leaders/settings', lazy: settings },
          {
            element: <RequireRole roles={['SUPERADMIN']} title="Manage users" />,
            children: [
              {
                path: '/users',
                lazy: async () => ({ Component: (await import('@/features/users/components/all-users-page')).AllUsersPage }),
              },
            ],
          },
          {
            element: <RequireRole roles={['SUPERADMIN']} title="Setup" />,
            children: [
              {
                path: '/setup',
                lazy: async () => ({ Component: (await import('@/features/setup/components/setup-page')).SetupPage }),
              },
            ],
          },
          {
            element: <RequireRole roles={['SUPERADMIN']} title="Manage organisations" />,
            children: [
              {
                path: '/schools',
                lazy: async () => ({ Component: (await import('@/features/schools/components/schools-page')).SchoolsPage }),
              },
            ],
          },
        ]),
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
