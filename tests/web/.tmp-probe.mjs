import { chromium } from 'playwright-core';
import { spawn } from 'node:child_process';
const proc = spawn('/tmp/qs/quarto-server', ['--host','127.0.0.1','--port','0','--web-root','/work/main/web','--db','/tmp/probe.db'], { stdio: ['ignore','pipe','pipe'] });
const port = await new Promise((res) => { let b=''; const on=(c)=>{ b+=c; const m=b.match(/listening on http:\/\/[^:]+:(\d+)/); if (m) res(m[1]); }; proc.stdout.on('data',on); proc.stderr.on('data',on); });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
const page = await browser.newPage({ viewport: { width: +(process.env.W||1200), height: +(process.env.H||900) } });
page.on('console', (m) => console.log('console', m.type(), m.text()));
page.on('pageerror', (e) => console.log('pageerror', e.message));
await page.goto(`http://127.0.0.1:${port}/`);
await page.evaluate(() => localStorage.setItem('quarto.name', 'Phoebe'));
await page.goto(`http://127.0.0.1:${port}/${process.env.HASH||''}`);
for (let i = 0; i < 40; i++) { const o = await page.evaluate(() => { const out=[]; for (const e of document.querySelectorAll('*')) { const r=e.getBoundingClientRect(); if (r.right > window.innerWidth+0.5) out.push(e.tagName+'.'+e.className+' '+Math.round(r.right)+' '+(e.textContent||'').slice(0,30)); } return out.slice(0,6); }); if (o.length) console.log(i, o); await page.waitForTimeout(50); }
console.log('overflow', await page.evaluate(() => { const out=[]; for (const e of document.querySelectorAll('*')) { const r=e.getBoundingClientRect(); if (r.right > window.innerWidth+0.5) out.push(e.tagName+'.'+e.className+' '+Math.round(r.right)); } return out.slice(0,10); }));
await page.screenshot({ path: '/tmp/probe.png', fullPage: true });
await browser.close(); proc.kill('SIGTERM');
