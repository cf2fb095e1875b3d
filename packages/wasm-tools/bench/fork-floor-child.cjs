// The floor of a cold start in a worker process (bench/fork-floor.ts) with a CommonJS entry, as the
// built package's worker.cjs: the same as fork-floor-child.mjs without Node's ESM loader.
process.on('message', (message) => {
  if (message?.type === 'call') process.send({ type: 'result', id: message.id, outcome: { ok: true } });
});
process.on('disconnect', () => process.exit(0));
process.send({ type: 'ready' });
