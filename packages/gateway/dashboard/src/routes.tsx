import { createBrowserRouter, Navigate } from 'react-router';
import { Layout } from './components/Layout';
import { AgentsPage } from './pages/agents/AgentsPage';
import { ChatPage } from './pages/chat/ChatPage';
import { CronPage } from './pages/cron/CronPage';
import { FilesPage } from './pages/files/FilesPage';
import { SessionPage } from './pages/sessions/SessionPage';
import { SessionsPage } from './pages/sessions/SessionsPage';
import { SettingsPage } from './pages/settings/SettingsPage';
import { SitesPage } from './pages/sites/SitesPage';
import { UsagePage } from './pages/usage/UsagePage';

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

export const router = createBrowserRouter(
  [
    {
      path: '/',
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/chat" replace /> },
        { path: 'chat', element: <ChatPage /> },
        { path: 'chat/:sessionId', element: <ChatPage /> },
        { path: 'sessions', element: <SessionsPage /> },
        { path: 'sessions/:sessionId', element: <SessionPage /> },
        { path: 'files', element: <FilesPage /> },
        { path: 'agents', element: <AgentsPage /> },
        { path: 'cron', element: <CronPage /> },
        { path: 'sites', element: <SitesPage /> },
        { path: 'usage', element: <UsagePage /> },
        { path: 'settings', element: <SettingsPage /> },
        { path: '*', element: <Navigate to="/chat" replace /> },
      ],
    },
  ],
  { basename: '/ui' },
);
