import { PageHeader } from '../../components/PageHeader';

export function CronPage() {
  return <PageHeader title="Cron" />;
}
