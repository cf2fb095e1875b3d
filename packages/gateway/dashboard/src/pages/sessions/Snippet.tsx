/** A search snippet with the matches (which the store marks `[` … `]`) highlighted. */
export function Snippet({ text }: { text: string }) {
  const parts = text.split(/\[([^\]]*)\]/);
  return (
    <span>
      {parts.map((part, index) =>
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed string, in order
        index % 2 === 1 ? <mark key={index}>{part}</mark> : <span key={index}>{part}</span>,
      )}
    </span>
  );
}
