import ReactMarkdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';

/**
 * Message text rendered as Markdown: raw HTML is not rendered (react-markdown escapes it) and link
 * and image URLs go through its safe URL filter, so a transcript cannot run script in the page.
 */
export function Markdown({ text }: { text: string }) {
  return (
    <div className="markdown">
      <ReactMarkdown rehypePlugins={[[rehypeHighlight, { detect: false, ignoreMissing: true }]]}>{text}</ReactMarkdown>
    </div>
  );
}
