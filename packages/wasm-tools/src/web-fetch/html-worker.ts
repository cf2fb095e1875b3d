// Worker-thread entry of web_fetch's HTML conversion: linkedom, Readability and Turndown run off
// the host's thread, so a hostile page (deep nesting, unclosed tables) is stopped at the deadline.
import { serveThreadTasks } from '../thread-pool/serve-tasks.js';
import { type RenderedPage, type RenderTask, renderPage } from './render-page.js';

serveThreadTasks<RenderTask, RenderedPage>((task) => renderPage(task));
