// The console's only assets, served from /console/assets/: one stylesheet, one script (live updates by
// server-sent events, copy buttons, confirmations). Written small by hand; no build step, no library.
export const consoleCss = `
:root{color-scheme:light;--fg:#1a1a1a;--muted:#555;--line:#d0d0d0;--accent:#0b57d0;--bad:#a50e0e;--good:#146c2e;--bg2:#f4f5f7}
*{box-sizing:border-box}body{margin:0;font:14px/1.45 system-ui,sans-serif;color:var(--fg);background:#fff}
a{color:var(--accent)}header{display:flex;flex-wrap:wrap;gap:1rem;align-items:center;padding:.5rem 1rem;background:var(--bg2);border-bottom:1px solid var(--line)}
header strong{margin-right:1rem}nav ul{display:flex;flex-wrap:wrap;gap:.25rem 1rem;list-style:none;margin:0;padding:0}
nav a[aria-current=page]{font-weight:700;color:var(--fg)}header form{margin-left:auto}
main{padding:1rem;max-width:1400px}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
table{border-collapse:collapse;width:100%;margin:.5rem 0}th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--bg2)}td.num{text-align:right}pre{background:var(--bg2);padding:.5rem;overflow:auto;max-height:28rem;white-space:pre-wrap;word-break:break-all;margin:.25rem 0}
form.inline{display:inline}.filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:end;margin-bottom:.5rem}
.filters label,.field label{display:block;font-size:.85rem;color:var(--muted)}input,select,button{font:inherit;padding:.3rem .5rem;border:1px solid #767676;border-radius:4px;background:#fff;color:var(--fg)}
button{cursor:pointer;background:var(--accent);border-color:var(--accent);color:#fff}button.secondary{background:#fff;color:var(--accent)}button.danger{background:var(--bad);border-color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;margin:.5rem 0}.s2{color:var(--good)}.s4,.s5,.failed{color:var(--bad)}.delivered{color:var(--good)}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}dt{color:var(--muted)}dd{margin:0}
.notice{padding:.5rem;border:1px solid var(--line);background:#fffbe6;margin:.5rem 0}.error{padding:.5rem;border:1px solid var(--bad);color:var(--bad);margin:.5rem 0}
.signin{max-width:28rem;margin:3rem auto;padding:1rem}.signin input{width:100%;margin:.25rem 0 1rem}.media{max-width:320px;border:1px solid var(--line)}figure{margin:0}figcaption{color:var(--muted);font-size:.85rem}
`;

export const consoleJs = `
(function(){
var live=document.getElementById('live');
if(live&&window.EventSource){
  var busy=false,again=false;
  var refresh=function(){if(busy){again=true;return}busy=true;
    fetch(location.href,{headers:{'x-console-live':'1'},credentials:'same-origin'}).then(function(r){return r.ok?r.text():null}).then(function(t){if(t!==null)live.innerHTML=t}).catch(function(){}).then(function(){busy=false;if(again){again=false;refresh()}})};
  var es=new EventSource('/console/events');es.addEventListener('change',refresh);
  // A change between drawing the page and connecting is not sent again: look once on every (re)connect.
  es.addEventListener('open',refresh);
}
document.addEventListener('click',function(e){
  var b=e.target.closest&&e.target.closest('[data-copy]');if(!b)return;
  var t=document.getElementById(b.getAttribute('data-copy'));if(!t)return;
  var done=function(){b.textContent='Copied'};
  if(navigator.clipboard)navigator.clipboard.writeText(t.textContent).then(done,function(){});
});
document.addEventListener('submit',function(e){var m=e.target.getAttribute('data-confirm');if(m&&!confirm(m))e.preventDefault()});
})();
`;
