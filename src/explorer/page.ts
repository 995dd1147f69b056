/**
 * The explorer's one page: static HTML, a script and a style sheet (served as files: the CSP allows no inline
 * code). Everything from transcripts goes in through textContent; links are made only for http(s) and mailto.
 * The view's state lives in the address's fragment, so a view can be reopened.
 */

export const PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>bookmark explorer</title>
<link rel="stylesheet" href="/app.css">
<script src="/app.js" defer></script>
</head>
<body>
<header>
<h1><a href="#" id="home">bookmark explorer</a></h1>
<form id="search" role="search">
<label>Search <input id="q" name="q" type="search" placeholder="words, a file name, an identifier"></label>
<label>Kind <select id="kind" name="kind"><option value="">any</option><option>request</option><option>reply</option><option>command</option><option>file</option><option>tool</option><option>commit</option><option>error</option><option>subagent</option><option>compaction</option><option>title</option></select></label>
<label>Since <input id="since" name="since" size="10" placeholder="7d, 2025-11-02"></label>
<label><input id="here" type="checkbox"> this project only</label>
<button type="submit">Search</button>
</form>
</header>
<p id="status" role="status"></p>
<main>
<nav id="projects" aria-label="Projects"><h2>Projects</h2><ul id="project-list"></ul></nav>
<section id="results" aria-label="Search results" hidden><h2>Results</h2><ol id="result-list"></ol></section>
<section id="sessions" aria-label="Sessions" hidden><h2 id="project-title"></h2><p id="continuity"></p><ul id="session-list"></ul></section>
<section id="session" aria-label="Session" hidden><h2 id="session-title"></h2><p id="session-meta"></p><p id="resume"></p><div id="handoff"></div><div id="wrapup"></div><div id="timeline"></div><div id="files"></div><ol id="event-list"></ol></section>
</main>
</body>
</html>
`

export const APP_CSS = `:root{color-scheme:light dark;--bg:#fff;--fg:#1b1b1b;--mute:#666;--line:#ddd;--acc:#0b57d0;--request:#0b57d0;--file:#1e8e3e;--command:#8e44ad;--commit:#b06000;--error:#c5221f}
@media (prefers-color-scheme:dark){:root{--bg:#15171a;--fg:#e6e6e6;--mute:#9aa0a6;--line:#333;--acc:#8ab4f8;--request:#8ab4f8;--file:#81c995;--command:#c58af9;--commit:#fdd663;--error:#f28b82}}
body{margin:0;font:15px/1.45 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
header{display:flex;flex-wrap:wrap;gap:.5em 1.5em;align-items:center;padding:.6em 1em;border-bottom:1px solid var(--line)}
h1{font-size:1.1em;margin:0}h1 a{color:inherit;text-decoration:none}h2{font-size:1em;margin:.4em 0}
form{display:flex;flex-wrap:wrap;gap:.5em;align-items:center}input,select,button{font:inherit;color:inherit;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:.15em .4em}
main{display:grid;grid-template-columns:minmax(12em,18em) 1fr;gap:1em;padding:0 1em 2em}
@media (max-width:760px){main{grid-template-columns:1fr}}
main>*{min-width:0}main>section{grid-column:2}@media (max-width:760px){main>section{grid-column:1}}
ul,ol{padding-left:0;list-style:none;margin:0}li{margin:.25em 0}
button.item{display:block;width:100%;text-align:left;border:1px solid var(--line);padding:.35em .5em;cursor:pointer}
button.item[aria-current=true]{border-color:var(--acc);outline:1px solid var(--acc)}
.mute{color:var(--mute);font-size:.9em;overflow-wrap:anywhere;white-space:pre-line}#continuity{white-space:pre-line}#status{padding:0 1em;color:var(--mute);min-height:1em}
:focus-visible{outline:2px solid var(--acc);outline-offset:1px}
#timeline svg{width:100%;height:auto;border:1px solid var(--line);border-radius:4px}
#timeline text{fill:var(--mute);font-size:11px}
.mark{stroke:var(--bg);stroke-width:.5}.mark:focus{stroke:var(--fg);stroke-width:2;outline:none}
.k-request{fill:var(--request)}.k-file{fill:var(--file)}.k-command{fill:var(--command)}.k-commit{fill:var(--commit)}.k-error{fill:var(--error)}
#event-list li{border-left:3px solid var(--line);padding:.2em .6em;margin:.4em 0}
#event-list li.hit{border-left-color:var(--acc);background:color-mix(in srgb,var(--acc) 12%,transparent)}
#event-list li.kind-error{border-left-color:var(--error)}#event-list li.kind-commit{border-left-color:var(--commit)}
.trail{font-size:.8em;margin:0 .2em}details{margin:.5em 0}summary{cursor:pointer}code{overflow-wrap:anywhere}
.text{white-space:pre-wrap;overflow-wrap:anywhere;margin:.2em 0}a{color:var(--acc)}
`

// The script avoids template literals so it can live in this file as one.
export const APP_JS = `'use strict'
var LANES = ['request', 'file', 'command', 'commit', 'error']
var $ = function (id) { return document.getElementById(id) }
function el(tag, text, cls) { var n = document.createElement(tag); if (text !== undefined && text !== null) n.textContent = String(text); if (cls) n.className = cls; return n }
function api(path) {
  return fetch(path, { credentials: 'same-origin' }).then(function (r) {
    return r.json().then(function (b) { if (!r.ok) throw new Error(b.error || String(r.status)); return b })
  })
}
function state() { return new URLSearchParams(location.hash.slice(1)) }
function go(changes) {
  var s = state()
  Object.keys(changes).forEach(function (k) { if (changes[k] === null || changes[k] === '') s.delete(k); else s.set(k, changes[k]) })
  location.hash = s.toString()
}
function when(ms) { return typeof ms === 'number' && isFinite(ms) ? new Date(ms).toISOString().slice(0, 16).replace('T', ' ') : '?' }
function whenIso(ts) { return ts ? when(Date.parse(ts)) : '?' }
function status(text) { $('status').textContent = text || '' }
/** Text with http(s) and mailto links made clickable; anything else stays text. */
function linked(parent, text) {
  var re = /\\b(?:https?:\\/\\/|mailto:)[^\\s<>"'\\u0060]+/g, at = 0, m
  while ((m = re.exec(text)) !== null) {
    parent.appendChild(document.createTextNode(text.slice(at, m.index)))
    var a = el('a', m[0]); a.href = m[0]; a.rel = 'noopener noreferrer'; a.target = '_blank'
    if (/^(https?:|mailto:)/i.test(a.protocol)) parent.appendChild(a); else parent.appendChild(document.createTextNode(m[0]))
    at = m.index + m[0].length
  }
  parent.appendChild(document.createTextNode(text.slice(at)))
  return parent
}
function item(label, sub, current, onclick) {
  var li = el('li'), b = el('button', null, 'item'); b.type = 'button'
  b.appendChild(el('span', label)); b.appendChild(el('div', sub, 'mute'))
  if (current) b.setAttribute('aria-current', 'true')
  b.addEventListener('click', onclick); li.appendChild(b); return li
}
var projects = []
function renderProjects(s) {
  var list = $('project-list'); list.replaceChildren()
  projects.forEach(function (p) {
    list.appendChild(item(p.name, p.sessions + (p.sessions === 1 ? ' session · ' : ' sessions · ') + when(p.last) + ' · ' + p.hosts.join(', '), p.id === s.get('p'), function () { go({ p: p.id, s: null, e: null }) }))
  })
  if (projects.length === 0) list.appendChild(el('li', 'Nothing indexed yet: run bookmark index --backfill.', 'mute'))
}
function renderSessions(pid) {
  var sec = $('sessions')
  if (!pid) { sec.hidden = true; return Promise.resolve() }
  sec.hidden = false
  var p = projects.find(function (x) { return x.id === pid })
  $('project-title').textContent = p ? p.name + ' (' + p.path + ')' : ''
  $('continuity').textContent = ''
  api('/api/projects/' + pid + '/continuity').then(function (c) {
    $('continuity').textContent = c.stores === 0 ? 'No bookmark store captured this project.' : continuity(c)
  }).catch(function (e) { status(e.message) })
  return api('/api/projects/' + pid + '/sessions').then(function (ss) {
    var list = $('session-list'); list.replaceChildren()
    var cur = state().get('s')
    ss.forEach(function (x) {
      var c = x.counts
      list.appendChild(item(x.title, (x.wrapUp ? 'Wrap-up: ' + x.wrapUp + '\\n' : x.lastReply ? 'Last reply: ' + x.lastReply + '\\n' : '') + when(x.first) + ' → ' + when(x.last) + ' · ' + x.host + ' · ' + c.requests + ' requests, ' + c.files + ' files, ' + c.commits + ' commits, ' + c.errors + ' errors' + (x.handoffFresh === true ? ' · handoff fresh' : x.handoffFresh === false ? ' · handoff older than the session' : ''), x.id === cur, function () { go({ s: x.id, e: null }) }))
    })
  })
}
/** Figures from the API are numbers; anything else shows as '?'. */
function num(v) { return typeof v === 'number' && isFinite(v) ? v.toLocaleString('en-US') : '?' }
function many(v, one, more) { return num(v) + ' ' + (v === 1 ? one : more) }
function continuity(c) {
  var r = c.restores
  return 'Continuity: ' + many(c.snapshots, 'snapshot', 'snapshots') + ' of ' + many(c.sessions, 'session', 'sessions') + ', ' + many(c.compactions, 'compaction', 'compactions') + ' survived' + (c.lastSnapshotAt ? ', last snapshot ' + whenIso(c.lastSnapshotAt) : '') + '.\\n' +
    'Narrative: ' + many(c.narrativeBlocks, 'block', 'blocks') + ' asked, ' + many(c.handoffsWritten, 'handoff', 'handoffs') + ' written (' + num(c.handoffsAnswered) + ' after a block)' + (c.lastHandoffAt ? ', the last ' + whenIso(c.lastHandoffAt) : '') + '.\\n' +
    'Restores: ' + (!r || !r.last ? 'none given yet.' : num(r.count) + ' given, ' + num(r.average) + ' characters on average, the largest ' + num(r.largest) + ', the last ' + num(r.last.chars) + ' (' + r.last.source + ', ' + whenIso(r.last.at) + ').') +
    (c.problems.length ? '\\n' + c.problems.join('; ') : '')
}
function timeline(events, first, last) {
  var NS = 'http://www.w3.org/2000/svg', W = 900, LH = 22, L = 80
  var svg = document.createElementNS(NS, 'svg')
  svg.setAttribute('viewBox', '0 0 ' + W + ' ' + (LANES.length * LH + 8))
  svg.setAttribute('role', 'group'); svg.setAttribute('aria-label', 'Timeline')
  LANES.forEach(function (k, i) {
    var t = document.createElementNS(NS, 'text'); t.setAttribute('x', '4'); t.setAttribute('y', String(i * LH + 18)); t.textContent = k + 's'; svg.appendChild(t)
  })
  var span = Math.max(1, last - first)
  events.forEach(function (e) {
    var lane = LANES.indexOf(e.kind); if (lane < 0 || !e.ts) return
    var x = L + ((Date.parse(e.ts) - first) / span) * (W - L - 10)
    var r = document.createElementNS(NS, 'rect')
    r.setAttribute('x', String(x - 2)); r.setAttribute('y', String(lane * LH + 6)); r.setAttribute('width', '4'); r.setAttribute('height', String(LH - 6))
    r.setAttribute('class', 'mark k-' + e.kind); r.setAttribute('tabindex', '0'); r.setAttribute('data-id', e.id)
    var tip = document.createElementNS(NS, 'title'); tip.textContent = whenIso(e.ts) + ' ' + e.kind + ': ' + e.text.slice(0, 200); r.appendChild(tip)
    var open = function () { go({ e: e.id }) }
    r.addEventListener('click', open)
    r.addEventListener('keydown', function (ev) { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); open() } })
    svg.appendChild(r)
  })
  return svg
}
function handoff(h) {
  var box = el('div')
  if (!h || h.status === 'none') { box.appendChild(el('p', 'No narrative handoff for this project.', 'mute')); return box }
  if (h.status === 'unsealed') { box.appendChild(el('p', 'A handoff is there, but it is not proven for this project as it is now: not shown.', 'mute')); return box }
  var d = el('details')
  d.appendChild(el('summary', 'Narrative handoff, written ' + whenIso(h.written) + (h.fresh === true ? ' (fresh: after this session)' : h.fresh === false ? ' (older than this session’s last activity)' : '')))
  d.appendChild(linked(el('div', null, 'text'), h.text || ''))
  box.appendChild(d)
  return box
}
/** The files the session changed, each with its trail of changes (a change opens its event). */
function files(events) {
  var byPath = new Map()
  events.forEach(function (e) {
    if (e.kind !== 'file') return
    ;(e.paths || []).forEach(function (p) { if (!byPath.has(p)) byPath.set(p, []); byPath.get(p).push(e) })
  })
  var d = el('details'); d.appendChild(el('summary', 'Files changed (' + byPath.size + ')'))
  var ul = el('ul', null, 'files')
  byPath.forEach(function (changes, p) {
    var li = el('li'); li.appendChild(el('code', p)); li.appendChild(document.createTextNode(' '))
    changes.forEach(function (e) {
      var b = el('button', whenIso(e.ts).slice(11) + (e.tool ? ' ' + e.tool : ''), 'trail'); b.type = 'button'
      b.addEventListener('click', function () { go({ e: e.id }) })
      li.appendChild(b)
    })
    ul.appendChild(li)
  })
  d.appendChild(ul)
  return d
}
var shownSession = null
function renderSession(sid, eid) {
  var sec = $('session')
  if (!sid) { sec.hidden = true; shownSession = null; return Promise.resolve() }
  sec.hidden = false
  var focus = function () {
    document.querySelectorAll('#event-list li.hit').forEach(function (n) { n.classList.remove('hit') })
    var n = eid && document.getElementById('ev-' + eid)
    if (n) { n.classList.add('hit'); n.focus(); n.scrollIntoView({ block: 'center' }) }
  }
  if (shownSession === sid) { focus(); return Promise.resolve() }
  return Promise.all([api('/api/sessions/' + sid), api('/api/sessions/' + sid + '/events')]).then(function (r) {
    var s = r[0], events = r[1]
    shownSession = sid
    if (!state().get('p')) { history.replaceState(null, '', '#' + (function () { var x = state(); x.set('p', s.projectId); return x.toString() })()); renderAll() }
    $('session-title').textContent = s.title
    var c = s.counts
    $('session-meta').textContent = s.project + ' · ' + s.host + ' · ' + when(s.first) + ' → ' + when(s.last) + ' · ' + c.requests + ' requests, ' + c.files + ' files, ' + c.commands + ' commands, ' + c.commits + ' commits, ' + c.errors + ' errors' +
      (s.store ? ' · ' + s.store.compactions + ' compactions, ' + s.store.narrativeBlocks + ' narrative blocks asked' : '')
    var resume = s.host === 'codex' ? 'codex resume ' + s.session : s.host === 'claude' ? 'claude --resume ' + s.session : ''
    var rp = $('resume'); rp.replaceChildren()
    if (resume) {
      rp.appendChild(el('code', resume))
      var b = el('button', 'copy resume command'); b.type = 'button'
      b.addEventListener('click', function () { navigator.clipboard && navigator.clipboard.writeText(resume).then(function () { status('Copied.') }) })
      rp.appendChild(document.createTextNode(' ')); rp.appendChild(b)
    }
    $('handoff').replaceChildren(handoff(s.handoff))
    var w = $('wrapup'); w.replaceChildren()
    if (s.wrapUp) { var wu = el('details'); wu.open = true; wu.appendChild(el('summary', 'The wrap-up')); wu.appendChild(linked(el('div', null, 'text'), s.wrapUp)); w.appendChild(wu) }
    if (s.lastReply) { var wd = el('details'); wd.appendChild(el('summary', 'How it ended: the last reply')); wd.appendChild(linked(el('div', null, 'text'), s.lastReply)); w.appendChild(wd) }
    $('timeline').replaceChildren(timeline(events, s.first, s.last))
    $('files').replaceChildren(files(events))
    var list = $('event-list'); list.replaceChildren()
    events.forEach(function (e) {
      var li = el('li', null, 'kind-' + e.kind); li.id = 'ev-' + e.id; li.tabIndex = -1
      li.appendChild(el('div', whenIso(e.ts) + ' · ' + e.kind + (e.tool ? ' (' + e.tool + ')' : '') + (e.sub ? ' · subagent' : ''), 'mute'))
      li.appendChild(linked(el('div', null, 'text'), e.text))
      if (e.paths && e.paths.length) li.appendChild(el('div', e.paths.join(', '), 'mute'))
      list.appendChild(li)
    })
    focus()
  })
}
function renderResults(s) {
  var q = s.get('q'), sec = $('results')
  $('q').value = q || ''; $('kind').value = s.get('kind') || ''; $('since').value = s.get('since') || ''; $('here').checked = !!s.get('in')
  if (!q) { sec.hidden = true; return Promise.resolve() }
  sec.hidden = false
  var params = new URLSearchParams({ q: q })
  ;['kind', 'since'].forEach(function (k) { if (s.get(k)) params.set(k, s.get(k)) })
  if (s.get('in')) params.set('project', s.get('in'))
  return api('/api/search?' + params.toString()).then(function (hits) {
    var list = $('result-list'); list.replaceChildren()
    if (hits.length === 0) list.appendChild(el('li', 'No events match.', 'mute'))
    hits.forEach(function (h) {
      var name = h.project.split(/[\\\\/]/).filter(Boolean).pop() || '(no project)'
      list.appendChild(item(h.snippet, whenIso(h.ts) + ' · ' + name + ' · ' + h.kind, h.id === s.get('e'), function () { if (h.sessionId) go({ s: h.sessionId, e: h.id, p: null }) }))
    })
  })
}
function renderAll() {
  var s = state()
  renderProjects(s)
  return Promise.all([renderResults(s), renderSessions(s.get('p')), renderSession(s.get('s'), s.get('e'))]).then(function () { status('') })
}
function render() { renderAll().catch(function (e) { status(e.message) }) }
document.addEventListener('DOMContentLoaded', function () {
  $('search').addEventListener('submit', function (ev) {
    ev.preventDefault()
    go({ q: $('q').value.trim(), kind: $('kind').value, since: $('since').value.trim(), in: $('here').checked ? state().get('p') : null })
  })
  window.addEventListener('hashchange', render)
  status('Reading the index…')
  api('/api/projects').then(function (ps) { projects = ps; render() }).catch(function (e) { status(e.message) })
})
`
