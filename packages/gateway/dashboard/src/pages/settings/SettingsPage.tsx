import { PageHeader } from '../../components/PageHeader';

export function SettingsPage() {
  return <PageHeader title="Settings" />;
}
