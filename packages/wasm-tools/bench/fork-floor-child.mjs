// The floor of a cold start in a worker process (bench/fork-floor.ts): a Node process forked like
// the pool's workers that loads nothing and answers one call.
process.on('message', (message) => {
  if (message?.type === 'call') process.send({ type: 'result', id: message.id, outcome: { ok: true } });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
