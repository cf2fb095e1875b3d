/** The browser page: a prompt box and the answer streaming in through EventSource. */
export const PAGE = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Shop assistant</title>
<style>body{font:16px system-ui;max-width:40rem;margin:2rem auto}#answer{white-space:pre-wrap}.tool{color:#666;font-size:.9em}</style>
</head>
<body>
<h1>Shop assistant</h1>
<form id="ask"><input id="prompt" size="50" value="Where is order 1042?"> <button>Ask</button></form>
<div id="tools"></div>
<p id="answer"></p>
<script>
const form = document.getElementById('ask');
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const answer = document.getElementById('answer');
  const tools = document.getElementById('tools');
  answer.textContent = '';
  tools.textContent = '';
  const source = new EventSource('/api/chat?prompt=' + encodeURIComponent(document.getElementById('prompt').value));
  source.addEventListener('text', (message) => { answer.textContent += JSON.parse(message.data).delta; });
  source.addEventListener('tool', (message) => {
    const line = document.createElement('div');
    line.className = 'tool';
    line.textContent = JSON.parse(message.data).summary;
    tools.append(line);
  });
  source.addEventListener('done', (message) => {
    const { reason } = JSON.parse(message.data);
    if (reason !== 'end_turn') answer.textContent += ' [' + reason + ']';
    source.close();
  });
  source.onerror = () => source.close();
});
</script>
</body>
</html>
`;
