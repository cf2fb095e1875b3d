import { PageHeader } from '../../components/PageHeader';

export function ChatPage() {
  return <PageHeader title="Chat" />;
}
