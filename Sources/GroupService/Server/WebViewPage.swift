/// The web view's page (`GET /view#INVITATION`): plain HTML, SVG and a small script, served from
/// the binary. It opens `/view/feed`, watches the session the invitation names and draws, live,
/// each participant's timeline with its breaks, its playhead, whom the group waits for and for
/// how long (MISSION S1.11), and the skew each participant measures against the group.
enum WebViewPage {
    static let html = #"""
<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Interlude · watching together</title>
<style>
  :root { color-scheme: dark; --bg: #14161a; --panel: #1d2026; --text: #e8e6e3; --dim: #8b9099; --primary: #6fa8dc;
          --ad: #f0a04b; --wait: #d9534f; --ok: #5cb85c; }
  body { margin: 0; font: 15px/1.45 system-ui, sans-serif; background: var(--bg); color: var(--text); }
  header { padding: 14px 22px; background: var(--panel); display: flex; gap: 24px; align-items: baseline; flex-wrap: wrap; }
  header h1 { font-size: 18px; margin: 0; font-weight: 600; }
  header .dim, .dim { color: var(--dim); }
  main { padding: 10px 22px 30px; }
  #timelines { width: 100%; max-width: 1100px; display: block; }
  #timelines text { fill: var(--text); font-size: 13px; }
  #timelines .dim { fill: var(--dim); }
  #waits { max-width: 1100px; margin-top: 8px; }
  #waits li { margin: 4px 0; }
  .wait { color: var(--wait); } .ad { color: var(--ad); } .ok { color: var(--ok); }
  #status.error { color: var(--wait); }
  code { background: #2a2e36; padding: 1px 5px; border-radius: 4px; }
</style>
</head>
<body>
<header>
  <h1>Watching together</h1>
  <span id="session" class="dim"></span>
  <span id="group"></span>
  <span id="skew" class="dim"></span>
  <span id="status" class="dim">connecting…</span>
</header>
<main>
  <svg id="timelines" viewBox="0 0 1100 120" role="img" aria-label="each participant's timeline"></svg>
  <ul id="waits"></ul>
</main>
<script>
"use strict";
const svgNS = "http://www.w3.org/2000/svg";
const view = {
  session: null, stream: "", version: 0, offset: 0,
  participants: new Map(),   // id → {name, role, state}
  schedules: new Map(),      // id → [{at, duration, event}] in seconds of coordinated time
  states: new Map(),         // id → the newest participant-state message
  reports: new Map(),        // id → {report, receivedGroupTime}
  playback: null,            // the group's newest playback-state
};
const seconds = (ns) => ns / 1e9;
const mediaSeconds = (t) => t ? t.value / t.timescale : 0;
// The group clock now, in ns: the server's last word on it plus the local time since.
const groupNow = () => performance.now() * 1e6 + view.offset;
const setClock = (groupTime) => { view.offset = groupTime - performance.now() * 1e6; };

function apply(event) {
  view.version = Math.max(view.version, event.version);
  if (event.presence) {
    const p = event.presence;
    view.participants.set(p.participant, { name: p.name, role: p.role, state: p.state === "returned" || p.state === "joined" ? "present" : p.state });
    return;
  }
  const message = event.message;
  if (!message) return;
  switch (message.type) {
    case "playback-state": view.playback = message; break;
    case "participant-state": view.states.set(event.sender, message); break;
    case "ad-schedule":
      view.schedules.set(event.sender, message.entries.map((entry) => ({
        at: mediaSeconds(entry.coordinatedTime), duration: mediaSeconds(entry.duration), event: entry.eventIdentifier || "stitched" })));
      break;
  }
}

function receive(text) {
  const message = JSON.parse(text);
  switch (message.type) {
    case "view":
      setClock(message.groupTime);
      Object.assign(view, { session: message.session, stream: message.stream, version: 0 });
      view.participants.clear(); view.schedules.clear(); view.states.clear(); view.playback = null;
      for (const p of message.participants) view.participants.set(p.participant, { name: p.name, role: p.role, state: p.state });
      for (const event of message.snapshot) apply(event);
      document.getElementById("session").textContent = `session ${message.session} · ${message.stream}`;
      status("live");
      break;
    case "event": if (message.version > view.version) apply(message); break;
    case "report": setClock(message.groupTime); view.reports.set(message.participant, message.report); break;
    case "clock": setClock(message.groupTime); break;
    case "error": status(`${message.code}: ${message.message}`, true); break;
  }
}

function status(text, isError) {
  const element = document.getElementById("status");
  element.textContent = text;
  element.className = isError ? "error" : "dim";
}

// A participant's name, with its identifier when another participant has the same name.
function name(id) {
  const own = (view.participants.get(id) || { name: id }).name;
  const same = [...view.participants.entries()].filter(([other, p]) => other !== id && p.name === own && p.state !== "left");
  return same.length ? `${own} (${id})` : own;
}

// Where a participant is now: its last report moved on at its rate.
function whereIs(id) {
  const report = view.reports.get(id);
  if (!report || !report.position || report.at === undefined) return null;
  const elapsed = Math.max(0, seconds(groupNow() - report.at));
  const p = report.position;
  if (p.break !== undefined) {
    const entry = (view.schedules.get(id) || []).find((e) => e.event === p.break);
    const offset = seconds(p.offset || 0) + p.rate * elapsed;
    return { coordinated: seconds(p.coordinated), inBreak: p.break, offset: entry ? Math.min(offset, entry.duration) : offset,
             breakDuration: entry ? entry.duration : null, rate: p.rate };
  }
  return { coordinated: seconds(p.coordinated) + p.rate * elapsed, rate: p.rate };
}

// Whom a participant's group waits for, with the time left of each blocker's break when it shares
// its schedule (S1.11).
function waitsOf(id) {
  const report = view.reports.get(id);
  if (!report || report.group !== "waiting") return [];
  return (report.waitingFor || []).filter((blocker) => blocker.participant !== id).map((blocker) => {
    let left = null;
    const state = view.states.get(blocker.participant);
    const open = state && (state.waitIntervals || []).filter((w) => w.end === undefined && w.expectedDuration !== undefined);
    if (open && open.length) {
      const w = open[open.length - 1];
      left = Math.max(0, seconds(w.start + w.expectedDuration - groupNow()));
    }
    return { participant: blocker.participant, cause: blocker.cause, left };
  });
}

const format = (s) => {
  const sign = s < 0 ? "-" : "", a = Math.abs(s), m = Math.floor(a / 60);
  return `${sign}${m}:${(a - m * 60).toFixed(1).padStart(4, "0")}`;
};

function draw() {
  const svg = document.getElementById("timelines");
  const rows = [...view.participants.entries()].filter(([, p]) => p.state !== "left").sort((a, b) => a[0].localeCompare(b[0], undefined, { numeric: true }));
  const where = new Map(rows.map(([id]) => [id, whereIs(id)]));
  // The axis: a film's whole length, or a window around a live stream's playheads.
  let content = 0;
  for (const state of view.states.values()) content = Math.max(content, mediaSeconds(state.contentDuration));
  const heads = [...where.values()].filter(Boolean).map((w) => w.coordinated);
  let from = 0, to = content;
  if (!content) {
    const lead = heads.length ? Math.max(...heads) : 0;
    from = Math.max(0, lead - 240); to = from + 300;
  }
  if (to <= from) to = from + 60;
  const left = 170, width = 1100 - left - 20, rowHeight = 66;
  const x = (t) => left + (Math.min(Math.max(t, from), to) - from) / (to - from) * width;
  svg.setAttribute("viewBox", `0 0 1100 ${40 + rows.length * rowHeight}`);
  svg.replaceChildren();
  const add = (tag, attributes, text) => {
    const element = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attributes)) element.setAttribute(k, v);
    if (text !== undefined) element.textContent = text;
    svg.appendChild(element);
    return element;
  };
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    const t = from + (to - from) * tick;
    add("text", { x: x(t), y: 16, "text-anchor": "middle", class: "dim" }, format(t));
    add("line", { x1: x(t), x2: x(t), y1: 22, y2: 30 + rows.length * rowHeight, stroke: "#2c3038" });
  }
  rows.forEach(([id, participant], index) => {
    const y = 50 + index * rowHeight, w = where.get(id), lost = participant.state !== "present";
    add("text", { x: 10, y: y + 4 }, name(id));
    add("text", { x: 10, y: y + 22, class: "dim" }, `${participant.role}${lost ? " · " + participant.state : ""}`);
    add("rect", { x: left, y: y - 3, width, height: 6, rx: 3, fill: "#30343c" });
    if (w) add("rect", { x: left, y: y - 3, width: Math.max(0, x(w.coordinated) - left), height: 6, rx: 3, fill: lost ? "#555" : "var(--primary)" });
    for (const entry of view.schedules.get(id) || []) {
      if (!(entry.duration > 0)) continue;
      const start = x(entry.at), end = Math.max(start + 5, left + (Math.min(entry.at + entry.duration, to) - from) / (to - from) * width);
      if (entry.at + entry.duration < from || entry.at > to) continue;
      add("rect", { x: start, y: y - 16, width: end - start, height: 9, rx: 2, fill: "var(--ad)", opacity: 0.85 });
      add("circle", { cx: start, cy: y, r: 4, fill: "var(--ad)" });
      add("text", { x: start + 2, y: y - 20, class: "dim", "font-size": 11 }, `${entry.duration.toFixed(0)} s ad`);
    }
    let line = "no report yet";
    const waits = waitsOf(id);
    if (w) {
      add("circle", { cx: x(w.coordinated), cy: y, r: 7, fill: w.inBreak ? "var(--ad)" : waits.length ? "var(--wait)" : "var(--text)", stroke: "var(--bg)", "stroke-width": 2 });
      if (w.inBreak) line = `in ad ${w.inBreak}: ${w.offset.toFixed(1)}${w.breakDuration ? " of " + w.breakDuration.toFixed(1) : ""} s`;
      else if (waits.length) line = `waiting at ${format(w.coordinated)}`;
      else line = `${w.rate ? "playing" : "paused"} at ${format(w.coordinated)}`;
      const report = view.reports.get(id);
      if (report && report.skew !== undefined && !w.inBreak) line += ` · skew ${(report.skew / 1e6).toFixed(1)} ms`;
    }
    add("text", { x: left, y: y + 24, class: w && w.inBreak ? "" : "dim" }, line);
  });
  // Whom the group waits for, and how long.
  const list = document.getElementById("waits");
  list.replaceChildren();
  // One line per participant that waits (not one in its own break): whom for, why, how long.
  for (const [id] of rows) {
    const w = where.get(id);
    if (w && w.inBreak) continue;
    const blockers = [];
    for (const wait of waitsOf(id)) if (!blockers.some((b) => b.participant === wait.participant)) blockers.push(wait);
    if (!blockers.length) continue;
    const item = document.createElement("li");
    item.className = "wait";
    item.textContent = `${name(id)} waits for ` + blockers.map((b) =>
      `${name(b.participant)} (${b.cause}${b.left !== null ? ", " + b.left.toFixed(1) + " s left" : ""})`).join(" and ");
    list.appendChild(item);
  }
  // The group: its state and the spread of the playheads in primary content.
  const playing = rows.map(([id]) => where.get(id)).filter((w) => w && !w.inBreak && w.rate);
  const group = document.getElementById("group");
  const p = view.playback;
  // A coordinator that holds the group for someone says so in its report; otherwise the group
  // does what its newest playback state says.
  const waiting = rows.some(([id]) => { const r = view.reports.get(id); return r && r.group === "waiting"; });
  group.textContent = waiting ? "group waiting" : p ? `group ${p.rate ? "playing at " + p.rate.toFixed(2) + "×" : "paused"}` : "";
  group.className = waiting ? "wait" : "";
  const skews = rows.map(([id]) => view.reports.get(id)).filter((r) => r && r.skew !== undefined).map((r) => r.skew / 1e6);
  document.getElementById("skew").textContent = skews.length > 1 && playing.length > 1
    ? `skew spread ${(Math.max(...skews) - Math.min(...skews)).toFixed(1)} ms` : "";
}

function connect() {
  const token = decodeURIComponent(location.hash.slice(1));
  if (!token) { status("open this page with an invitation: /view#INVITATION", true); return; }
  const socket = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/view/feed`);
  socket.onopen = () => socket.send(JSON.stringify({ type: "watch", token }));
  socket.onmessage = (message) => receive(message.data);
  socket.onclose = (close) => {
    status(close.reason ? `closed: ${close.reason}` : "disconnected; reconnecting…", close.code === 1008 || close.code === 4004);
    if (close.code !== 1008 && close.code !== 4004) setTimeout(connect, 2000);
  };
}
window.interludeView = view;
connect();
setInterval(draw, 200);
</script>
</body>
</html>
"""#
}
