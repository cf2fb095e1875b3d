import type { ComponentType } from 'react';
import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/Layout';
/** The dashboard's pages, under `/ui/` (the gateway serves `index.html` for every path below it). */
export const pages = [
  { path: 'chat', label: 'Chat' },
  { path: 'sessions', label: 'Sessions' },
  { path: 'files', label: 'Files' },
  { path: 'agents', label: 'Agents, skills, tools' },
  { path: 'cron', label: 'Cron' },
  { path: 'sites', label: 'Sites' },
  { path: 'usage', label: 'Usage' },
  { path: 'settings', label: 'Settings' },
] as const;

/**
 * A page loaded on first visit (its own chunk: the charts of Usage or the Markdown renderer of Chat are
 * not downloaded by someone who only opens Files).
 */
function page<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K) {
  return async () => ({ Component: (await load())[name] });
}

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/chat" replace /> },
        { path: 'chat', lazy: page(() => import('./pages/chat/ChatPage'), 'ChatPage') },
        { path: 'chat/:sessionId', lazy: page(() => import('./pages/chat/ChatPage'), 'ChatPage') },
        { path: 'sessions', lazy: page(() => import('./pages/sessions/SessionsPage'), 'SessionsPage') },
        { path: 'sessions/:sessionId', lazy: page(() => import('./pages/sessions/SessionPage'), 'SessionPage') },
        { path: 'files', lazy: page(() => import('./pages/files/FilesPage'), 'FilesPage') },
        { path: 'agents', lazy: page(() => import('./pages/agents/AgentsPage'), 'AgentsPage') },
        { path: 'cron', lazy: page(() => import('./pages/cron/CronPage'), 'CronPage') },
        { path: 'sites', lazy: page(() => import('./pages/sites/SitesPage'), 'SitesPage') },
        { path: 'usage', lazy: page(() => import('./pages/usage/UsagePage'), 'UsagePage') },
        { path: 'settings', lazy: page(() => import('./pages/settings/SettingsPage'), 'SettingsPage') },
        { path: '*', element: <Navigate to="/chat" replace /> },
      ],
    },
  ],
  { basename: '/ui' },
);
