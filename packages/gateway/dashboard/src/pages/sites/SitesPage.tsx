import { PageHeader } from '../../components/PageHeader';

export function SitesPage() {
  return <PageHeader title="Sites" />;
}
