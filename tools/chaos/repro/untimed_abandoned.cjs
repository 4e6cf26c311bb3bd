// A finding of the chaos soak (bench/RESULTS.md): two players start an untimed game in a
// public room, then both vanish (TCP reset, no leave). The room is never reclaimed: a room whose
// game is in progress waits for its clocks, and an untimed game has none. This prints the
// room's lobby status every 10 s. Against a server started with --room-idle-seconds 5:
//   node tools/chaos/repro/untimed_abandoned.cjs ws://127.0.0.1:PORT/ws 60
// Needs Debian's node-ws (deploy/deps.sh --bench).
const WebSocket = require('/usr/share/nodejs/ws');
const http = require('http');
const [url, seconds] = [process.argv[2], Number(process.argv[3] || 60)];
const base = url.replace('ws://', 'http://').replace('/ws', '');
const open = () => new Promise((ok) => { const ws = new WebSocket(url); ws.on('open', () => ok(ws)); });
const next = (ws, type) => new Promise((ok) => {
  const f = (d) => { const m = JSON.parse(d); if (m.type === type) { ws.off('message', f); ok(m); } };
  ws.on('message', f);
});
const get = (path) => new Promise((ok) => http.get(base + path, (r) => { let b = ''; r.on('data', (c) => b += c); r.on('end', () => ok(b)); }));
(async () => {
  const a = await open(); a.send(JSON.stringify({ type: 'hello', name: 'Ann' })); await next(a, 'welcome');
  a.send(JSON.stringify({ type: 'create_room', name: 'untimed', clock: { move_ms: null } }));
  const room = (await next(a, 'room_created')).room;
  const b = await open(); b.send(JSON.stringify({ type: 'hello', name: 'Bo' })); await next(b, 'welcome');
  const started = next(a, 'game_started');
  b.send(JSON.stringify({ type: 'join', room }));
  await started;
  a.terminate(); b.terminate();
  console.log(`room ${room}: untimed game started, both players reset`);
  for (let t = 10; t <= seconds; t += 10) {
    await new Promise((ok) => setTimeout(ok, 10000));
    const list = JSON.parse(await get('/api/rooms?limit=200'));
    const mine = list.rooms.find((r) => r.id === room);
    const metrics = (await get('/metrics')).split('\n').filter((l) => l.startsWith('quarto_rooms{')).join(' ');
    console.log(`${t} s: ${mine ? mine.status + ', players ' + JSON.stringify(mine.players) : 'gone (reclaimed)'} | ${metrics}`);
  }
  process.exit(0);
})();
