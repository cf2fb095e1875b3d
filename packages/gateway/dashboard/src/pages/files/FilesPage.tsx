import { PageHeader } from '../../components/PageHeader';

export function FilesPage() {
  return <PageHeader title="Files" />;
}
