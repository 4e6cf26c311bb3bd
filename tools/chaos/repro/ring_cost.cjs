// How much a room's kept events cost (bench/RESULTS.md, the chaos soak): ROOMS untimed rooms (their
// creators stay), then CHURN connections join and leave them as spectators for SECONDS (each join
// and leave is an event the room keeps for sync, up to 256). Compare the server's malloc_stats()
// (gdb -p PID -batch -ex 'call (void)malloc_stats()', printed into its log) before and after:
//   node tools/chaos/repro/ring_cost.cjs ws://127.0.0.1:PORT/ws 20 100 60
const WebSocket = require('/usr/share/nodejs/ws');
const [url, rooms, churn, seconds] = [process.argv[2], +process.argv[3], +process.argv[4], +process.argv[5]];
const open = () => new Promise((ok) => { const ws = new WebSocket(url); ws.on('open', () => ok(ws)); });
const next = (ws, type) => new Promise((ok) => {
  const f = (d) => { const m = JSON.parse(d); if (m.type === type) { ws.off('message', f); ok(m); } };
  ws.on('message', f);
});
(async () => {
  const ids = [];
  for (let i = 0; i < rooms; i++) {
    const c = await open(); c.send(JSON.stringify({ type: 'hello', name: 'c' + i })); await next(c, 'welcome');
    c.send(JSON.stringify({ type: 'create_room', clock: { move_ms: null } })); ids.push((await next(c, 'room_created')).room);
  }
  console.log('rooms created; churning');
  let events = 0;
  for (let k = 0; k < churn; k++) {
    const w = await open(); w.send(JSON.stringify({ type: 'hello', name: 'w' + k })); await next(w, 'welcome');
    let n = k, joined = null;
    setInterval(() => {
      if (joined) { w.send(JSON.stringify({ type: 'leave', room: joined })); joined = null; }
      else { joined = ids[n++ % ids.length]; w.send(JSON.stringify({ type: 'join', room: joined, as: 'spectator' })); }
      events++;
    }, 550);
  }
  setTimeout(() => { console.log(`about ${events} joins and leaves, ${Math.round(events / rooms)} a room`); process.exit(0); }, seconds * 1000);
})();
